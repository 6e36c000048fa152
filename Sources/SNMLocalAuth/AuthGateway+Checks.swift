import SNMGateway
import SNMWire

extension AuthGateway {
  /// GoTrue's admin check: a valid Bearer token whose `role` is `service_role` or
  /// `supabase_admin` (GoTrue's admin roles). The router has already put the service_role JWT
  /// there for an `sb_secret_` key. 401 without a token, 403 bad_jwt for a bad one, 403 not_admin
  /// for anyone else's (the anon key, a user's session).
  func requireAdmin(_ request: HTTPRequest) throws(AuthFailure) {
    let claims = try bearerClaims(request)
    guard let role = claims["role"]?.stringValue, ["service_role", "supabase_admin"].contains(role)
    else { throw AuthFailure.notAdmin }
  }

  /// A path segment that must be a UUID: GoTrue answers 404 validation_failed otherwise.
  static func uuidParameter(_ segment: String, name: String) throws(AuthFailure) -> String {
    guard let id = UUIDText.canonical(segment) else {
      throw AuthFailure.validationFailed("\(name) must be an UUID", status: 404)
    }
    return id
  }

  /// A metadata field: an object, or absent/null as `{}`; anything else is 400 bad_json.
  static func metadata(_ value: JSONValue?, name: String) throws(AuthFailure) -> JSONValue {
    guard let value, !value.isNull else { return .object([]) }
    guard value.objectValue != nil else {
      throw AuthFailure.badJSON("\(name) must be an object")
    }
    try AuthMetadataBound.check(value, name: name)
    return value
  }
}
