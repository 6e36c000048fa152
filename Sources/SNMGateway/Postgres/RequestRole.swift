/// Who a transaction runs as and what it may read of the request: the values of its prelude.
///
/// ```swift
/// var role = RequestRole(role: "authenticated", claims: #"{"sub":"…","role":"authenticated"}"#)
/// role.method = "GET"
/// role.settings = [.init("storage.operation", "object.get")]
/// try pool.transaction(as: role) { tx in try tx.execute("select auth.uid()").scalar }
/// ```
/// Every field but `role` is optional: one left nil is not set. A service fills in what it
/// shares with the database (REST the request's method, path, headers and cookies, Storage its
/// operation); `prelude` writes the one `set_config` statement that sets them all.
public struct RequestRole: Sendable, Equatable {
  /// One more transaction-local setting: a role's own (`alter role ... set`), a function's
  /// hoisted one, or a service's (`storage.operation`).
  public struct Setting: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The database role (`set_config('role', …, true)`, as `SET LOCAL ROLE`).
  public var role: String
  /// The verified claims as compact JSON text (`request.jwt.claims`).
  public var claims: String?
  /// The schemas to search, written as SQL identifiers and joined by ", " (`search_path`).
  public var searchPath: String?
  /// `request.method`.
  public var method: String?
  /// `request.path`.
  public var path: String?
  /// `request.headers`: a JSON object's text.
  public var headers: String?
  /// `request.cookies`: a JSON object's text.
  public var cookies: String?
  /// `timezone` (`Prefer: timezone=`).
  public var timezone: String?
  /// More settings, set after the ones above, in this order.
  public var settings: [Setting]
  /// Sets `transaction_read_only`: a write then fails (25006).
  public var readOnly: Bool
  /// Sets `row_security` off: a statement a row-security policy would affect then fails (42501,
  /// "query would be affected by row-level security policy") instead of running under the
  /// policy. For a prelude that leaves out what policies read (the claims): it makes sure no
  /// policy runs without them, whatever a stale schema cache believed.
  public var rowSecurityOff = false

  public init(
    role: String, claims: String? = nil, settings: [Setting] = [], readOnly: Bool = false
  ) {
    self.role = role
    self.claims = claims
    self.settings = settings
    self.readOnly = readOnly
  }
}
