import Foundation
import Synchronization

/// The databases `realtime check` may read, by project URL. The snm binary, which links the
/// local project (the shell does not), registers a local project's database when it selects it,
/// as it configures ``SessionManager/shared``; a project with none registered is checked through
/// its Realtime join alone, and the report says what that leaves out.
///
/// ```swift
/// RealtimeCheckDatabases.shared.register(database, for: project.url)
/// RealtimeCheckDatabases.shared.database(for: project.url)   // the same, or nil
/// ```
public final class RealtimeCheckDatabases: Sendable {
  public static let shared = RealtimeCheckDatabases()

  private let databases = Mutex<[String: any RealtimeCheckDatabase]>([:])

  public init() {}

  /// `database` is the one behind the project at `projectURL`.
  public func register(_ database: any RealtimeCheckDatabase, for projectURL: URL) {
    databases.withLock { $0[Self.key(projectURL)] = database }
  }

  /// The database behind the project at `projectURL`, if snm may read it.
  public func database(for projectURL: URL) -> (any RealtimeCheckDatabase)? {
    databases.withLock { $0[Self.key(projectURL)] }
  }

  private static func key(_ url: URL) -> String {
    var text = url.absoluteString.lowercased()
    while text.hasSuffix("/") { text.removeLast() }
    return text
  }
}
