import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sessions as files in `$XDG_STATE_HOME/snm/` (else `~/.local/state/snm/`), one per project URL.
///
/// ```swift
/// let store = FileSessionStore(directory: FileSessionStore.defaultDirectory())
/// try store.save(session, project: "http://127.0.0.1:54321")
/// ```
/// Files are 0600 in a 0700 directory and are replaced atomically (temporary file, fsync, rename),
/// so a reader never sees half a file and a failed write leaves the old file intact. A `.lock`
/// file beside each session serialises refreshes across processes with `flock`. A file keeps
/// SHA-256 marks of the project's keys (`keys`, never the keys): loaded for a project whose marks
/// share none, it is another project's once served at that URL (a local project on a reused port):
/// `load` throws ``SessionStoreError/otherProject(path:)``. A file without marks (written before they were kept) is anyone's.
public struct FileSessionStore: SessionStore {
  /// The directory holding the session files.
  public let directory: String
  /// The longest `lock(project:)` waits for another holder.
  public let lockTimeout: Duration

  public init(directory: String, lockTimeout: Duration = .seconds(60)) {
    self.directory = directory
    self.lockTimeout = lockTimeout
  }

  /// `$XDG_STATE_HOME/snm` when that is an absolute path, else `$HOME/.local/state/snm`.
  public static func defaultDirectory(
    environment: [String: String] = ProcessEnvironment.current
  ) -> String {
    XDGDirectory.state.snmPath(environment: environment)
  }

  /// The session file of `project`: `session-<host>-<port>-<hash>.json`, readable and unique.
  public func path(project: String) -> String {
    directory + "/" + Self.fileStem(project: project) + ".json"
  }

  /// The lock file of `project`, beside its session file.
  public func lockPath(project: String) -> String {
    directory + "/" + Self.fileStem(project: project) + ".lock"
  }

  static func fileStem(project: String) -> String {
    let url = URL(string: project)
    var readable = url?.host ?? "project"
    if let port = url?.port { readable += "-\(port)" }
    readable = String(
      readable.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(80))
    // A hash of the whole URL keeps projects on one host apart.
    return "session-\(readable)-" + String(FileIO.stableHash(project) & 0xffff_ffff, radix: 16)
  }

  public func load(project: String, keyMarks: Set<String>) throws(SessionStoreError)
    -> SupabaseSession?
  {
    guard let stored = try loadStored(project: project) else { return nil }
    guard Self.sameProject(stored.keys, keyMarks) else {
      throw .otherProject(path: path(project: project))
    }
    if let ended = stored.ended {
      throw .endedByServer(path: path(project: project), code: ended.code, date: ended.date)
    }
    return stored.session
  }

  /// Whether a session kept with `stored` marks is the one of a project known by `given`: either
  /// side unknown (no marks), or one mark in common.
  static func sameProject(_ stored: [String]?, _ given: Set<String>) -> Bool {
    guard let stored, !stored.isEmpty, !given.isEmpty else { return true }
    return !given.isDisjoint(with: stored)
  }

  func loadStored(project: String) throws(SessionStoreError) -> StoredSession? {
    let path = path(project: project)
    // A refused folder is read from not at all; it keeps a session only when the file is there.
    if RefusedFolder.refuses(directory) {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      throw .refusedFolder(directory: directory)
    }
    var data: Data
    switch FileIO.read(path) {
    case .success(let bytes?): data = bytes
    case .success(nil): return nil
    case .failure(let failure): throw .unreadable(path: path, reason: failure.reason)
    }
    // The file's bytes hold the tokens: zeroed once decoded (the decoder's own copies are not
    // reached, nor the session's strings).
    defer { WipedMemory.zero(&data) }
    // Not a session (damaged, or a value no session can hold): left for the caller, which
    // removes it where the run goes on signed out (SessionManager).
    let stored: StoredSession
    do {
      stored = try JSONDecoder().decode(StoredSession.self, from: data)
    } catch {
      throw .damaged(path: path, reason: Self.reason(error))
    }
    // A file holds a session or the mark that the server ended one; one with neither (its
    // version and project alone) is damaged too.
    guard stored.session != nil || stored.ended != nil else {
      throw .damaged(path: path, reason: Self.holdsNeither)
    }
    guard stored.project == project else {
      throw .unreadable(path: path, reason: "it belongs to \(stored.project)")
    }
    return stored
  }

  public func save(_ session: SupabaseSession, project: String, keyMarks: Set<String>)
    throws(SessionStoreError)
  {
    let path = path(project: project)
    // The marks of the session replaced, when it was this project's, stay: a login with one key
    // is still seen by a run with another key of the project.
    var marks = keyMarks
    if let previous = try? loadStored(project: project), let kept = previous.keys,
      !keyMarks.isEmpty, Self.sameProject(kept, keyMarks)
    {
      marks.formUnion(kept)
    }
    if let problem = session.problem {
      throw .unwritable(path: path, reason: "the session is not valid (\(problem))")
    }
    try write(
      StoredSession(
        version: 1, project: project, keys: marks.isEmpty ? nil : marks.sorted(), session: session),
      to: path)
  }

  public func markEnded(project: String, code: String, date: Date) throws(SessionStoreError) {
    let path = path(project: project)
    // The marks stay: another project served at this URL later is not told of this one's end.
    let kept = (try? loadStored(project: project))?.keys
    let ended = StoredSession.Ended(code: code, date: ISO8601Timestamp.string(from: date))
    try write(StoredSession(version: 1, project: project, keys: kept, ended: ended), to: path)
  }

  /// Writes `stored` to `path` in one step (``FileIO/writeAtomically(_:to:)``), 0600, making
  /// the folder (0700) first.
  private func write(_ stored: StoredSession, to path: String) throws(SessionStoreError) {
    var data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      data = try encoder.encode(stored)
    } catch {
      throw .unwritable(path: path, reason: "could not encode the session")
    }
    // The serialized session holds its tokens: zeroed once written (or not).
    defer { WipedMemory.zero(&data) }
    if RefusedFolder.refuses(directory) { throw .refusedFolder(directory: directory) }
    if let reason = FileIO.makeDirectory(directory) {
      throw .unwritable(path: path, reason: reason)
    }
    if let reason = FileIO.writeAtomically(data, to: path) {
      throw .unwritable(path: path, reason: reason)
    }
  }

  public func delete(project: String) throws(SessionStoreError) {
    let path = path(project: project)
    if unlink(path) != 0 && errno != ENOENT {
      throw .unwritable(path: path, reason: FileIO.errorText(errno))
    }
  }

  /// Why a file that decodes but holds neither a session nor the mark that the server ended one
  /// is not a session.
  static let holdsNeither = "it holds neither a session nor the mark that the server ended one"

  /// What was wrong with a session file, in a few words (never its contents).
  static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      if let key = context.codingPath.last { return "bad '\(key.stringValue)'" }
      let text = context.debugDescription
      return text.hasPrefix("bad ") || text.hasPrefix("empty ") ? text : "not JSON"
    case DecodingError.keyNotFound(let key, _): return "no '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return context.codingPath.last.map { "bad '\($0.stringValue)'" } ?? "not a session"
    default: return "not a session"
    }
  }

  /// What a session file holds: a format version, the project it belongs to (its URL and the
  /// marks of its keys; no marks in files written before they were kept), and the session, or
  /// in its place the mark that the server ended it (``Ended``: no token).
  struct StoredSession: Codable {
    var version: Int
    var project: String
    var keys: [String]?
    var session: SupabaseSession?
    var ended: Ended?

    /// The server's `error_code` when it ended the session, and when (ISO 8601, UTC).
    struct Ended: Codable {
      var code: String
      var date: String
    }
  }
}
