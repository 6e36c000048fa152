import SNMGateway
import SNMWire

/// `GET /rest/v1/`: the OpenAPI document for the schema, limited to what the role may use.
extension RESTGateway {
  static let privilegesSQL = """
    SELECT json_build_object(
      'tables', coalesce((SELECT json_object_agg(c.relname, json_build_array(
          has_table_privilege(c.oid, 'SELECT') OR has_any_column_privilege(c.oid, 'SELECT'),
          has_table_privilege(c.oid, 'INSERT') OR has_any_column_privilege(c.oid, 'INSERT'),
          has_table_privilege(c.oid, 'UPDATE') OR has_any_column_privilege(c.oid, 'UPDATE'),
          has_table_privilege(c.oid, 'DELETE')))
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'f', 'p')), '{}'),
      'functions', coalesce((SELECT json_agg(DISTINCT p.proname)
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = $1 AND p.prokind = 'f' AND has_function_privilege(p.oid, 'EXECUTE')), '[]')
    )::text
    """

  func openAPIResponse(
    _ request: HTTPRequest, auth: RequestAuth, database: PGPool, cache: SchemaCache,
    schema: String
  ) throws -> HTTPResponse {
    // As any request PostgREST 13 serves from the database: the request's settings, then the
    // pre-request function (which may refuse it).
    let settings = (cache.roleSettings[auth.role] ?? []).map {
      RequestRole.Setting($0.name, $0.value)
    }
    var role = RequestRole(
      role: auth.role, claims: auth.claimsJSON, settings: settings, readOnly: true)
    role.searchPath = ([schema] + cache.extraSearchPath).map(SQLText.identifier)
      .joined(separator: ", ")
    role.method = request.method
    role.path = RequestSettings.path(request.path)
    let shared = RequestSettings.headers(request.headers)
    role.headers = shared.headers
    role.cookies = shared.cookies
    let text = try database.transaction(
      as: role, begin: nil, then: RESTRequestRole.preRequest(cache)
    ) { tx in
      try tx.pipeline([PGStatement(Self.privilegesSQL, [schema], prepared: true)])[0].scalar
    }
    var privileges = OpenAPIDocument.Privileges(tables: [:], functions: [])
    if let text, let value = try? JSONValue(parsing: text) {
      for member in value["tables"]?.objectValue ?? [:] {
        let flags = member.value.arrayValue?.map { $0.boolValue ?? false } ?? []
        var allowed: Set<String> = []
        for (index, name) in ["select", "insert", "update", "delete"].enumerated()
        where index < flags.count && flags[index] {
          allowed.insert(name)
        }
        if !allowed.isEmpty { privileges.tables[member.key] = allowed }
      }
      privileges.functions = Set(value["functions"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
    let document = OpenAPIDocument(
      cache: cache, schema: schema, host: request.headers["Host"] ?? "127.0.0.1",
      privileges: privileges)
    var headers = HTTPHeaders()
    headers.append(name: "Content-Type", value: "application/openapi+json; charset=utf-8")
    let body = request.method.uppercased() == "HEAD" ? [] : Array(document.json.serialized().utf8)
    return HTTPResponse(status: 200, headers: headers, body: body)
  }
}
