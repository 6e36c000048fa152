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
    let text = segment.lowercased()
    let hex = text.unicodeScalars.filter { $0 != "-" }
    guard text.count == 36, hex.count == 32,
      hex.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }),
      [8, 13, 18, 23].allSatisfy({ text[text.index(text.startIndex, offsetBy: $0)] == "-" })
    else {
      throw AuthFailure.validationFailed("\(name) must be an UUID", status: 404)
    }
    return text
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
