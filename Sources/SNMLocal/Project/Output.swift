import Foundation

/// Writes one line to standard error.
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes one line to standard output, unbuffered.
func printLine(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
