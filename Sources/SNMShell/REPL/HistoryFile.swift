import Foundation
import SNMSupabase
import SNMWire

/// The statements typed at earlier prompts, one file per user, shared by every project.
///
/// ```swift
/// let file = HistoryFile(path: HistoryFile.defaultPath())
/// for entry in file.load() { editor.addToHistory(entry) }
/// file.append("from user_info select *")
/// ```
/// Format: one statement per line; a backslash is written `\\` and a newline inside a
/// multi-line statement `\n`. The file is created 0600 in a 0700 directory. Appending (rather than
/// rewriting) lets two shells at once keep both their histories. History is a convenience and never
/// stops the shell: `append` returns why it could not write (the prompt warns once), and a write
/// cut short by a full disk is taken back, so the file never ends in half a statement.
public struct HistoryFile: Sendable {
  /// Where the history lives.
  public let path: String
  /// How many statements are kept; the file is trimmed to this many when it grows to twice as many.
  public let limit: Int

  public init(path: String, limit: Int = 1000) {
    self.path = path
    self.limit = limit
  }

  /// `$XDG_STATE_HOME/snm/history`, else `~/.local/state/snm/history`.
  public static func defaultPath(
    environment: [String: String] = ProcessEnvironment.current
  ) -> String {
    XDGDirectory.state.snmPath(environment: environment) + "/history"
  }

  /// The stored statements, oldest first, at most `limit` of them.
  public func load() -> [String] {
    guard !RefusedFolder.refuses(directory) else { return [] }
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    let entries = lines.map { Self.decode($0) }.filter { !$0.isEmpty }
    if entries.count >= 2 * limit { rewrite(Array(entries.suffix(limit))) }
    return Array(entries.suffix(limit))
  }

  /// Adds one statement at the end of the file, creating it (0600) when missing.
  ///
  /// Returns nil when the statement was saved, or not, in a folder others may write in (said once
  /// by ``RefusedFolder``), else why not (`cannot write PATH: no space left on device`); the file
  /// is then as it was.
  @discardableResult
  public func append(_ statement: String) -> String? {
    if RefusedFolder.refuses(directory) { return nil }
    if let problem = prepareDirectory() { return problem }
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return "cannot write \(path): " + FileIO.errorText(errno) }
    defer { close(fd) }
    var info = stat()
    let sizeBefore = fstat(fd, &info) == 0 ? info.st_size : -1
    let line = Array((Self.encode(statement) + "\n").utf8)
    guard let failed = FileDescriptorIO.writeAll(fd, line) else { return nil }
    // A part of the line may be in: cut the file back to where it was, so no half line stays.
    if sizeBefore >= 0 { _ = ftruncate(fd, sizeBefore) }
    return "cannot write \(path): " + FileIO.errorText(failed)
  }

  /// Replaces the file's content with `entries`, through a temporary file renamed into place.
  func rewrite(_ entries: [String]) {
    guard prepareDirectory() == nil else { return }
    let text = entries.map { Self.encode($0) + "\n" }.joined()
    _ = FileIO.writeAtomically(Data(text.utf8), to: path)
  }

  /// The folder the file is in.
  private var directory: String { (path as NSString).deletingLastPathComponent }

  /// Creates the file's directory (0700) when missing; nil on success, else why not.
  private func prepareDirectory() -> String? {
    FileIO.makeDirectory(directory)
  }

  static func encode(_ statement: String) -> String {
    line.escape(statement)
  }

  static let line = ScalarEscaping(["\\": "\\\\", "\n": "\\n", "\r": "\\r"])

  static func decode<S: StringProtocol>(_ line: S) -> String {
    var out = ""
    var escaped = false
    for scalar in line.unicodeScalars {
      if escaped {
        switch scalar {
        case "n": out += "\n"
        case "r": out += "\r"
        default: out.unicodeScalars.append(scalar)
        }
        escaped = false
      } else if scalar == "\\" {
        escaped = true
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
