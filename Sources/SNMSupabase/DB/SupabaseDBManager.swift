import SNMNetwork

/// The entry point of the request layer: starts builder chains against one project's REST API.
///
/// ```swift
/// let remoteDBManager = SupabaseDBManager(
///   config: config, provider: provider,
///   accessToken: { try await SessionManager.shared.requestToken() })
/// let rows = try await remoteDBManager.fetchData().setTable("dog_profile")
///   .setQuery(.select("name"), .greaterThanOrEqual("age", 3)).request().value
/// ```
///
/// The DB layer knows nothing of Auth: the `accessToken` closure is asked once per request, and
/// its `nil` means "send the API key as the bearer" (``SupabaseProjectManager``).
public struct SupabaseDBManager: SupabaseProjectManager {
  public let link: SupabaseProjectLink

  public init(link: SupabaseProjectLink) {
    self.link = link
  }

  /// Reads rows: GET.
  public func fetchData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> { start(.fetch) }
  /// Inserts the body's row(s): POST.
  public func insertData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> {
    start(.insert)
  }
  /// Updates the filtered rows with the body: PATCH.
  public func updateData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> {
    start(.update)
  }
  /// Inserts or merges the body's row(s): POST with `Prefer: resolution=...`.
  public func upsertData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> {
    start(.upsert)
  }
  /// Inserts or replaces the one row the filters name by its primary key: PUT.
  public func putData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> {
    start(.put)
  }
  /// Deletes the filtered rows: DELETE.
  public func deleteData() -> SupabaseDBRequestBuilder<SupabaseDBPhase.NeedsTable> {
    start(.delete)
  }

  /// Calls a database function: POST `/rest/v1/rpc/<function>` with the body as arguments, or with
  /// `get: true` GET with each argument as a query parameter (STABLE/IMMUTABLE functions only).
  public func rpc(_ function: String, get: Bool = false)
    -> SupabaseDBRequestBuilder<SupabaseDBPhase.Ready>
  {
    SupabaseDBRequestBuilder(manager: self, action: .rpc(function: function, get: get))
  }

  /// Starts a table chain for an action chosen at run time (the snm language's path); an empty
  /// table name then fails when the request is built, with ``SupabaseDBError/missingTable(_:)``.
  public func start(_ action: SupabaseDBAction) -> SupabaseDBRequestBuilder<
    SupabaseDBPhase.NeedsTable
  > {
    SupabaseDBRequestBuilder(manager: self, action: action)
  }
}
