import SNMGateway

/// What a REST request shares with the database before its own statements, PostgREST's
/// `txVarQuery`: the role it runs as and the request's values as settings (`RequestRole`), then
/// the pre-request function's call.
///
///     let role = RESTRequestRole.role(context, readOnly: true)
///     try context.database.transaction(as: role, then: RESTRequestRole.preRequest(cache)) { ... }
enum RESTRequestRole {
  /// The statements before the request's own: the role's prelude, then the pre-request function
  /// when `pgrst.db_pre_request` names one (for a read streamed through a cursor, which keeps
  /// its connection past one transaction call).
  static func prelude(_ context: RESTGateway.Context, readOnly: Bool) -> [PGStatement] {
    [role(context, readOnly: readOnly).prelude] + preRequest(context.cache)
  }

  /// The pre-request function's call, when `pgrst.db_pre_request` names one; its result is
  /// dropped: only a failure (the function's raise) counts.
  static func preRequest(_ cache: SchemaCache) -> [PGStatement] {
    guard let function = cache.preRequest else { return [] }
    var statement = PGStatement("select \(function.sql)()", prepared: true)
    statement.form = .discarded
    return [statement]
  }

  /// Who the request runs as and what it shares with the database (PostgREST's `txVarQuery`):
  /// the role, the claims, `search_path` (the request's schema, then
  /// `pgrst.db_extra_search_path`), `request.method`, `request.path` (under `/rest/v1`),
  /// `request.headers` (lowercase names, without `Cookie`), `request.cookies`, `timezone` from
  /// `Prefer: timezone=`, the role's own settings, then those the called function hoists
  /// (PostgREST's `funcSettingsSql`).
  /// `prelude` (`KnownCodeReads.swift`): known code's sends the role, `search_path`, `timezone`
  /// and the role's settings only, what Postgres's own code sees, and turns row security off;
  /// the claims' sends those and the claims, what claims code sees too. Neither is read only
  /// (a plain read writes nothing either way).
  static func role(
    _ context: RESTGateway.Context, readOnly: Bool, prelude: KnownCodeReads.Prelude = .whole
  ) -> RequestRole {
    let knownCode = prelude == .knownCode
    var settings: [RequestRole.Setting] = []
    if let own = context.cache.roleSettings[context.auth.role] {
      // PostgREST sets the role's settings before `Prefer: timezone=`, which so wins over a
      // role's TimeZone; the prelude sets the timezone first, so that setting is left out.
      let preferred = context.preferences.timezone != nil
      settings = own.filter { !(preferred && $0.name.lowercased() == "timezone") }
        .map { RequestRole.Setting($0.name, $0.value) }
    }
    if !context.functionSettings.isEmpty {
      settings += context.functionSettings.map { RequestRole.Setting($0.name, $0.value) }
    }
    var role = RequestRole(
      role: context.auth.role, claims: knownCode ? nil : context.auth.claimsJSON,
      settings: settings, readOnly: readOnly && prelude == .whole)
    role.searchPath = context.cache.searchPath(context.schema)
    role.timezone = context.preferences.timezone
    guard prelude == .whole else {
      role.rowSecurityOff = knownCode
      return role
    }
    role.method = context.request.method
    role.path = RequestSettings.path(context.request.path)
    let headers = RequestSettings.headers(context.request.headers)
    role.headers = headers.headers
    role.cookies = headers.cookies
    return role
  }
}
