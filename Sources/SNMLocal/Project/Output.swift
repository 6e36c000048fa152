import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// Writes `text` and a line feed to standard error: a message for a person, every character a
/// terminal must not get raw (SNMWire's one walk, `VisibleTextLine`) shown as an escape
/// (`\u{202E}`), its line feeds kept. A folder's name, a config file's text, a mail's subject
/// are another person's text.
func printError(_ text: String) {
  writeError(text + "\n")
}

/// ``printError(_:)`` without the line feed (a question asked on the same line as its answer).
func writeError(_ text: String) {
  StandardStreams.writeError(VisibleTextLine.escapedKeepingLines(text))
}

/// Writes one line to standard output, unbuffered (a write that fails is remembered, and said
/// as snm ends): text for a person, shown as ``printError(_:)``
/// shows it; with `keepingTabs` its tabs as they are (a log line's).
func printLine(_ text: String, keepingTabs: Bool = false) {
  let shown = VisibleTextLine.escaped(text, keepingLines: true, tabs: keepingTabs)
  StandardStreams.writeOutput(shown + "\n")
}

/// Writes `value` as one line of JSON to standard output: at a terminal every character a
/// terminal must not get raw written as JSON's own escape (`\u202e`: the same JSON value); to a
/// pipe or a file its bytes as they are (data, as `--format json` writes them).
func printJSON(_ value: JSONValue) {
  let text = value.serialized()
  let shown = isatty(STDOUT_FILENO) == 1 ? VisibleTextLine.escapedJSON(text) : text
  StandardStreams.writeOutput(shown + "\n")
}
