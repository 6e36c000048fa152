import Foundation
import SNMWire

/// Where sessions persist between snm runs, one per project URL, shared by concurrent processes.
/// A session is kept with marks of the keys of the project it was signed in to (SHA-256, never the
/// keys): another project served at that URL later, whose keys share no mark, is not signed in.
///
/// ```swift
/// let stored = try store.load(project: url)
/// let lock = try await store.lock(project: url)
/// defer { lock.unlock() }   // re-read, refresh and save while holding it
/// ```
/// `load` throws ``SessionStoreError/unreadable(path:reason:)`` for an unreadable file,
/// ``SessionStoreError/damaged(path:reason:)`` for a corrupt one (left where it is),
/// ``SessionStoreError/otherProject(path:)`` for another project's;
/// ``SessionStoreError/endedByServer(path:code:date:)`` where the server ended the session kept
/// there (``markEnded(project:code:date:)``);
/// `save` and `delete` throw ``SessionStoreError/unwritable(path:reason:)`` and leave the previous
/// file as it was.
public protocol SessionStore: Sendable {
  /// The stored session for `project`, nil when there is none. Throws
  /// ``SessionStoreError/otherProject(path:)`` when it belongs to another project once served at
  /// that URL (it was kept with key marks, and none is in `keyMarks`).
  func load(project: String, keyMarks: Set<String>) throws(SessionStoreError) -> SupabaseSession?
  /// Replaces the stored session for `project` in one step (readers see the old or the new one),
  /// kept with `keyMarks` and the marks stored with the session it replaces when that was this
  /// project's too (they share one).
  func save(_ session: SupabaseSession, project: String, keyMarks: Set<String>)
    throws(SessionStoreError)
  /// Deletes the stored session for `project` (no error when there is none).
  func delete(project: String) throws(SessionStoreError)
  /// Replaces the stored session for `project` with a mark that the server ended it (`code`, the
  /// server's `error_code`, at `date`), holding no token: until a sign-in (``save(_:project:keyMarks:)``)
  /// or a `logout` (``delete(project:)``) replaces it, ``load(project:keyMarks:)`` throws
  /// ``SessionStoreError/endedByServer(path:code:date:)``, so a later run does not go on
  /// signed out as if no one had signed in.
  func markEnded(project: String, code: String, date: Date) throws(SessionStoreError)
  /// Takes the project's lock, which excludes other processes and other store instances taking
  /// it, waiting while someone else holds it.
  func lock(project: String) async throws(SessionStoreError) -> SessionLock
  /// Removes the stored session for `project` if it is damaged (holds no session) under the
  /// project's lock, taken only when it is free now, re-read under it: a holder (a `login`, a
  /// refresh in another process) is about to write the file, and what a sign-in wrote is never
  /// removed for what was read before it.
  func removeDamaged(project: String) throws(SessionStoreError) -> DamagedRemoval
  /// Where the session of `project` is kept, as messages name it.
  func path(project: String) -> String
}

/// What ``SessionStore/removeDamaged(project:)`` did.
public enum DamagedRemoval: Sendable, Hashable {
  /// The file, still damaged under the lock, is gone.
  case removed
  /// Another holds the lock (about to write the file): left as it is.
  case lockHeld
  /// Under the lock the file was no longer damaged (a sign-in replaced it, or it is gone): left.
  case replaced
}

extension SessionStore {
  /// The stored session for `project`, whichever project it was signed in to.
  public func load(project: String) throws(SessionStoreError) -> SupabaseSession? {
    try load(project: project, keyMarks: [])
  }

  /// Replaces the stored session for `project`, with no key marks.
  public func save(_ session: SupabaseSession, project: String) throws(SessionStoreError) {
    try save(session, project: project, keyMarks: [])
  }
}

/// Why the session store could not do what was asked. Never holds file contents.
public enum SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists but cannot be read, or is a session for another URL.
  case unreadable(path: String, reason: String)
  /// The file holds no session (not JSON, a value no session can hold): `load` leaves it where
  /// it is, for the caller to remove (``SessionStore/delete(project:)``) where the run goes on
  /// signed out (the prompt); `reason` says what is wrong, and then whether it was removed.
  case damaged(path: String, reason: String)
  /// The file is the session of another project once served at the same URL (its key marks
  /// share none with this project's): no session for this one.
  case otherProject(path: String)
  /// The file could not be written or removed (full disk, read-only directory).
  case unwritable(path: String, reason: String)
  /// The lock was not free within the time allowed.
  case lockTimeout(path: String)
  /// Another account may write in the folder (``RefusedFolder``, which said so once): nothing
  /// is read from it or kept in it.
  case refusedFolder(directory: String)
  /// The server ended the session kept in the file (`code`, its `error_code`, at `date`, an
  /// ISO 8601 time): signed out, and said so until a sign-in or `logout` replaces the mark.
  case endedByServer(path: String, code: String, date: String)

  /// The paths in it with their hidden characters escaped (`\u{1B}`), as every message shows
  /// a path: they come from `$XDG_STATE_HOME`, and a warning goes straight to standard error.
  public var description: String {
    VisibleTextLine.escaped(words)
  }

  private var words: String {
    switch self {
    case .unreadable(let path, let reason):
      "the saved session \(path) is unreadable (\(reason)); sign in again with 'login'"
    case .damaged(let path, let reason):
      "the saved session \(path) is unreadable (not a valid session: \(reason)); sign in again "
        + "with 'login'"
    case .otherProject(let path):
      "the saved session \(path) was signed in to another project served at this URL before "
        + "(its keys differ); sign in again with 'login'"
    case .unwritable(let path, let reason):
      "could not save the session to \(path) (\(reason)); the previous file is unchanged"
    case .lockTimeout(let path): "timed out waiting for the session lock \(path)"
    case .refusedFolder(let directory):
      "refusing \(directory): others may write in it; sessions are neither read nor kept there"
    case .endedByServer(let path, let code, let date):
      "the session saved in \(path) was ended by the server (\(code)) at \(date); sign in again "
        + "with 'login'"
    }
  }
}
