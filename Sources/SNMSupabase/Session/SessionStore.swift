/// Where sessions persist between snm runs, one per project URL, shared by concurrent processes.
///
/// ```swift
/// let stored = try store.load(project: url)
/// let lock = try await store.lock(project: url)
/// defer { lock.unlock() }   // re-read, refresh and save while holding it
/// ```
/// `load` throws ``SessionStoreError/unreadable(path:reason:)`` for a corrupt or unreadable file;
/// `save` and `delete` throw ``SessionStoreError/unwritable(path:reason:)`` and leave the previous
/// file as it was.
public protocol SessionStore: Sendable {
  /// The stored session for `project`, nil when there is none.
  func load(project: String) throws(SessionStoreError) -> SupabaseSession?
  /// Replaces the stored session for `project` in one step (readers see the old or the new one).
  func save(_ session: SupabaseSession, project: String) throws(SessionStoreError)
  /// Deletes the stored session for `project` (no error when there is none).
  func delete(project: String) throws(SessionStoreError)
  /// Takes the project's lock, which excludes other processes and other store instances taking
  /// it, waiting while someone else holds it.
  func lock(project: String) async throws(SessionStoreError) -> SessionLock
}

/// Why the session store could not do what was asked. Never holds file contents.
public enum SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file exists but cannot be read or is not a session.
  case unreadable(path: String, reason: String)
  /// The file could not be written or removed (full disk, read-only directory).
  case unwritable(path: String, reason: String)
  /// The lock was not free within the time allowed.
  case lockTimeout(path: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "the saved session \(path) is unreadable (\(reason)); sign in again with 'login'"
    case .unwritable(let path, let reason):
      "could not save the session to \(path) (\(reason)); the previous file is unchanged"
    case .lockTimeout(let path): "timed out waiting for the session lock \(path)"
    }
  }
}
