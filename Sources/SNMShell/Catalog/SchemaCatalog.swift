import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire
import Synchronization

/// The names completion and `describe` know: the project's OpenAPI document, loaded in the
/// background and cached, plus the tables and columns seen in results.
///
/// ```swift
/// let catalog = SchemaCatalog()
/// catalog.startLoading(provider: provider, project: project, cache: cache)   // returns at once
/// catalog.tableNames()          // from the cache or the server, else tables queried so far
/// catalog.noteResult(table: "user_info", columns: ["id", "name"])
/// ```
/// The prompt prepares the load instead (``prepareLoading(_:)``) and starts it on the first need
/// (``loadIfNotStarted(else:)``): the first key typed, the first Tab, a statement that reads names.
/// When the server refuses the document (hosted projects answer 401/403 to anon keys) the catalog
/// keeps what it saw in results; `problem` says why, for `tables` and `describe`.
public final class SchemaCatalog: Sendable {
  struct State {
    var schema: DatabaseSchema?
    /// When the cached document `schema` came from was stored; nil once the server gave one.
    var cachedAt: Date?
    var problem: LoadProblem?
    var loading: Task<Void, Never>?
    var started = false
    /// Whether the latest load ended (with the document or a `problem`).
    var settled = false
    /// The latest load's number.
    var generation = 0
    /// How to start the load, kept until the first need (``prepareLoading(_:)``).
    var prepared: (@Sendable () -> Void)?
    var seenTables: [String] = []
    var seenColumns: [String: [String]] = [:]
  }

  let state = Mutex(State())
  /// Storage's bucket and folder names.
  public let storage = StorageNames()

  public init(schema: DatabaseSchema? = nil) {
    state.withLock { $0.schema = schema }
  }

  /// The parsed document, when one was loaded.
  public var schema: DatabaseSchema? { state.withLock { $0.schema } }

  /// When the cache the schema came from was stored: nil when the server gave it (or none).
  public var cachedAt: Date? { state.withLock { $0.cachedAt } }

  /// Why the last load got no document (nil when it did or none was tried).
  public var problem: LoadProblem? { state.withLock { $0.problem } }

  /// Why a load got no document.
  public enum LoadProblem: Sendable, Equatable, CustomStringConvertible {
    /// The server answered but would not give it (401/403 for anon keys on hosted projects).
    case refused(String)
    /// The project could not be reached, or its answer could not be read: the failure itself,
    /// which a statement reports as a request's (``StatementFamily/requestFailure(_:)``: a
    /// stopped local project, a host not found).
    case unreachable(SNMNetworkError)

    public var description: String {
      switch self {
      case .refused(let text): text
      case .unreachable(let failure): failure.description
      }
    }
  }

  /// Starts loading: the cached document first (at once), then `GET /rest/v1/` in a background task.
  /// Never blocks; a later call replaces an unfinished load.
  public func startLoading(
    provider: SNMNetworkProvider, project: ProjectSelection, cache: SchemaCache?,
    accessToken: String? = nil
  ) {
    if let cached = cache?.load(for: project), let document = try? JSONValue(parsing: cached),
      let schema = try? DatabaseSchema(openAPI: document)
    {
      let storedAt = cache?.storedAt(for: project) ?? .distantPast
      state.withLock { state in
        state.schema = schema
        state.cachedAt = storedAt
      }
    }
    // Each load has its number: only the latest marks the catalog settled.
    let generation = state.withLock { state in
      state.generation += 1
      state.settled = false
      state.started = true
      return state.generation
    }
    let task = Task.detached(priority: .utility) { [self] in
      await self.refresh(
        provider: provider, project: project, cache: cache, accessToken: accessToken)
      state.withLock { state in
        if state.generation == generation { state.settled = true }
      }
    }
    let previous = state.withLock { state in
      defer { state.loading = task }
      return state.loading
    }
    previous?.cancel()
  }

  /// Whether `startLoading` was called.
  public var hasStartedLoading: Bool { state.withLock { $0.started } }

  /// Waits for the load in progress, if any (for `tables` and `describe`, and tests).
  public func waitUntilLoaded() async {
    let task = state.withLock { $0.loading }
    await task?.value
  }

  /// Fetches the document now; keeps the old schema when the fetch fails.
  func refresh(
    provider: SNMNetworkProvider, project: ProjectSelection, cache: SchemaCache?,
    accessToken: String?
  ) async {
    let endpoint = Endpoint(
      baseURL: project.url.absoluteString, path: "/rest/v1/", method: .get,
      headers: ["Accept": "application/openapi+json"])
    do {
      let response = try await provider.send(endpoint: endpoint, accessToken: accessToken)
      let schema = try DatabaseSchema(openAPI: try response.json())
      state.withLock { state in
        state.schema = schema
        state.cachedAt = nil
        state.problem = nil
      }
      cache?.store(response.body, for: project)
    } catch let error as SNMNetworkError {
      if case .cancelled = error { return }
      let problem: LoadProblem =
        if let failure = error.serverError {
          .refused(SchemaNotice.refusal(status: failure.status, message: failure.message))
        } else {
          .unreachable(error)
        }
      state.withLock { $0.problem = problem }
    } catch {
      state.withLock { $0.problem = .refused("the schema could not be read: \(error)") }
    }
  }

  /// Remembers a table and the columns of its rows, for completion without the document.
  public func noteResult(table: String, columns: [String]) {
    state.withLock { state in
      // The same statement again (a script's thousands of selects): nothing new to note.
      if state.seenColumns[table] == columns { return }
      if !state.seenTables.contains(table) { state.seenTables.append(table) }
      var known = state.seenColumns[table] ?? []
      // A set beside the list, so a wide row is noted in linear time.
      var seen = Set(known)
      for column in columns where seen.insert(column).inserted { known.append(column) }
      state.seenColumns[table] = known
    }
  }

  /// Table and view names: the document's, then any others seen in results.
  public func tableNames() -> [String] {
    state.withLock { state in
      let documented = state.schema?.tables.map(\.name) ?? []
      return documented + state.seenTables.filter { !documented.contains($0) }
    }
  }

  /// Function names for `rpc`.
  public func functionNames() -> [String] {
    state.withLock { $0.schema?.functions.map(\.name) ?? [] }
  }

  /// Column names of `table` (the document's, then those seen in results).
  /// The type of `column` of `table` as the schema names it (`integer`, `text[]`), if known.
  public func columnType(of column: String, in table: String) -> String? {
    state.withLock { $0.schema?.table(named: table)?.column(named: column)?.type }
  }

  public func columns(of table: String) -> [String] {
    state.withLock { state in
      let documented = state.schema?.table(named: table)?.columns.map(\.name) ?? []
      let seen = state.seenColumns[table] ?? []
      return documented + seen.filter { !documented.contains($0) }
    }
  }

  /// Tables `table` can embed: those it references and those referencing it by a foreign key.
  public func relations(of table: String) -> [String] {
    state.withLock { state in
      guard let schema = state.schema else { return [] }
      var names: [String] = []
      for column in schema.table(named: table)?.columns ?? [] {
        if let target = column.foreignKey?.table, !names.contains(target) { names.append(target) }
      }
      for other in schema.tables
      where other.columns.contains(where: { $0.foreignKey?.table == table }) {
        if !names.contains(other.name) { names.append(other.name) }
      }
      return names
    }
  }
}
