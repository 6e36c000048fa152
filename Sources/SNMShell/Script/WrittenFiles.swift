import Foundation
import SNMQuery

/// The files a script's statements write (`\o FILE`, `set output 'FILE'`, `> 'out.txt'`,
/// `storage download BUCKET/PATH to FILE`), noted as its check reaches them, so that `snm check`
/// can tell a `run` of a file an earlier statement writes (`\o gen.snm` ... `run gen.snm`: a
/// warning, the file is checked when it runs) from one of a file nothing writes (an error).
///
/// ```swift
/// var written = WrittenFiles()
/// written.note(statement, in: source, file: "main.snm")   // `\o gen.snm` on line 1
/// written.writer(of: "gen.snm")                           // "main.snm:1"
/// ```
/// Each path is taken as the runtime takes it, then compared whole (absolute, `.` and `..` taken
/// out): a file a statement writes as ``LocalPath`` resolves it (`\o`'s under the working
/// directory, as psql's; `> 'file'`'s and `download ... to`'s under the script's folder), a `run`
/// target as ``ScriptLoader/resolve(_:from:)`` does (through ``LocalPath`` too, under the folder
/// of the file it is in; `~/` is the home folder in both). So `./gen.snm` is `gen.snm`, `\o
/// '~/gen.snm'` is `run ~/gen.snm`, and `tests/gen.snm` written from the working
/// directory is the `gen.snm` a script in `tests/` runs. A `${...}` part (or a `$name` given as
/// the file) may stand for any text: `\o 'gen-${n}.snm'` may write `gen-1.snm`.
public struct WrittenFiles: Sendable {
  /// A file a statement writes: its absolute path as the texts between its `${...}` parts, and
  /// where the first statement that writes it starts.
  private struct Written: Sendable {
    let pieces: [String]
    let source: Source
    let offset: Int
  }

  /// The files written, by their pieces joined by a NUL (which no path holds): a file written
  /// by every statement of a large script is noted once.
  private var files: [String: Written] = [:]

  public init() {}

  /// Notes the file `statement` (of `source`, the script file `file`: nil for `-c` and standard
  /// input) writes, if it writes one (``Checker/writesFile`` says which statements to note).
  mutating func note(_ statement: Statement, in source: Source, file: String?) {
    guard let (name, besideScript) = Self.written(by: statement) else { return }
    var pieces = [""]
    for part in name {
      if case .text(let text) = part {
        pieces[pieces.count - 1] += text
      } else {
        pieces.append("")
      }
    }
    // A name that starts with a `${...}` part may be absolute: its start is left to match any.
    if pieces.count == 1 || !pieces[0].isEmpty {
      let directory = besideScript ? file.flatMap(ScriptRunner.folder(ofScript:)) : nil
      pieces[0] = Self.absolute(
        LocalPath.resolve(pieces[0], directory: directory), whole: pieces.count == 1)
    }
    let key = pieces.joined(separator: "\u{0}")
    if files[key] == nil {
      files[key] = Written(pieces: pieces, source: source, offset: statement.range.start)
    }
  }

  /// Where a statement noted that writes `target` (a `run` target as
  /// ``ScriptLoader/resolve(_:from:)`` makes it) is, as `file:line`; nil when none writes it.
  func writer(of target: String) -> String? {
    guard !files.isEmpty else { return nil }
    let path = Self.absolute(target, whole: true)
    // A `run` takes its name as written: a `${` in it is that text, not a value filled in, and
    // only a file written under that very name is it.
    let literal = path.contains("${")
    guard
      let found = files[path]
        ?? (literal ? nil : files.values.first(where: { Self.matches(path, $0.pieces) }))
    else { return nil }
    let line = found.source.location(of: found.offset).line
    return "\(VisibleText.escaped(found.source.fileName)):\(line)"
  }

  /// The name of the file `statement` writes, as its parts, and whether it is relative to the
  /// script's folder (`> 'file'`, `download ... to`) rather than the working directory (`\o`).
  private static func written(by statement: Statement) -> ([StringPart], besideScript: Bool)? {
    switch statement.kind {
    case .shell(.output(let file?)): return (file.literal.parts, false)
    case .functions(let call): return call.outputFile.map { ($0.literal.parts, true) }
    case .storage(.download(_, let to?, _)):
      switch to.value {
      case .string(let literal): return (literal.parts, true)
      case .variable(let name): return ([.variable(name)], true)
      default: return nil
      }
    case .let(let binding):
      guard case .statement(let inner) = binding.value else { return nil }
      return written(by: inner)
    case .asService(let inner): return written(by: inner)
    default: return RequestStatements.outputFile(of: statement).map { ($0.literal.parts, true) }
    }
  }

  /// Whether `path` is `pieces` with any text (`/` too) between each two.
  private static func matches(_ path: String, _ pieces: [String]) -> Bool {
    guard pieces.count > 1 else { return path == pieces[0] }
    guard let last = pieces.last, path.hasPrefix(pieces[0]), path.hasSuffix(last),
      path.utf8.count >= pieces[0].utf8.count + last.utf8.count
    else { return false }
    var rest = path.dropFirst(pieces[0].count).dropLast(last.count)
    for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
      guard let found = rest.range(of: piece) else { return false }
      rest = rest[found.upperBound...]
    }
    return true
  }

  /// `path` under the working directory when it is relative; when it is the `whole` name, with
  /// `.` and `..` taken out, else (a name a `${...}` part goes on) its folders only: the text
  /// after its last `/` is the start of a name.
  private static func absolute(_ path: String, whole: Bool) -> String {
    let full = path.hasPrefix("/") ? path : workingDirectory + "/" + path
    if whole { return ScriptLoader.normalize(full) }
    guard let slash = full.lastIndex(of: "/") else { return full }
    let folder = ScriptLoader.normalize(String(full[..<slash]))
    return (folder == "/" ? "" : folder) + full[slash...]
  }

  private static var workingDirectory: String { FileManager.default.currentDirectoryPath }
}
