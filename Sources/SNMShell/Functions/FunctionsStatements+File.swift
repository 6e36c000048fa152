import Foundation
import SNMQuery

/// `invoke ... > 'file'` / `request ... > 'file'`: the answer's body, byte for byte, written
/// beside the file first and renamed into place, so a failure never leaves half a file. The path
/// is relative to the script's folder, as `file '<path>'` bodies are.
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
    let path = RequestStatements.localPath(filled, directory: directory)
    let temporary = path + ".snm-partial"
    do {
      try answer.body.write(to: URL(fileURLWithPath: temporary))
      if FileManager.default.fileExists(atPath: path) {
        _ = try FileManager.default.replaceItemAt(
          URL(fileURLWithPath: path), withItemAt: URL(fileURLWithPath: temporary))
      } else {
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
      }
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      return failure(
        .usage, "cannot write '\(VisibleText.escaped(file.path))': \(error.localizedDescription)")
    }
    let count = answer.body.count
    note("\(count == 1 ? "1 byte" : "\(count) bytes") written to \(VisibleText.escaped(file.path))")
    return nil
  }
}
