import Foundation
import SNMNetwork
import SNMQuery

/// `invoke ... > 'file'` / `request ... > 'file'`: the answer's body, byte for byte, written
/// beside the file first and renamed into place (``BesideFile``), so a failure never leaves half
/// a file. The path is relative to the script's folder, as `file '<path>'` bodies are.
extension FunctionsStatements {
  /// Writes `answer`'s body to `file` and says so (`5 bytes written to out.bin`); the failure
  /// when it could not (nothing left behind).
  func write(_ answer: FunctionsAnswer, to file: OutputFile, directory: String?)
    -> StatementFailure?
  {
    let filled: String
    do {
      filled = try ValueEvaluator.text(file.literal, in: environment.variables)
    } catch {
      return failure(.usage, error.message.text)
    }
    let path = LocalPath.resolve(filled, directory: directory)
    do throws(TransportFileError) {
      let beside = try BesideFile(destination: path)
      try beside.write(contentsOf: answer.body)
      try beside.finish()
    } catch {
      return failure(.usage, "cannot write '\(VisibleText.escaped(file.path))': \(error.reason)")
    }
    let count = answer.body.count
    note("\(count == 1 ? "1 byte" : "\(count) bytes") written to \(VisibleText.escaped(file.path))")
    return nil
  }
}
