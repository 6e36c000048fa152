import SNMWire

extension SNMServerError {
  /// The status Supabase Storage puts in its error body: it answers most errors with HTTP 400
  /// and the real status as the string `statusCode` (`{"statusCode": "404", "error":
  /// "not_found", "message": "Object not found"}`); nil for other bodies.
  public var storageStatusCode: Int? {
    guard !response.body.isEmpty, case .object(let body)? = try? JSONValue(parsing: response.body),
      body["error"] != nil || body["code"] != nil
    else { return nil }
    switch body["statusCode"] {
    case .string(let text)?: return Int(text)
    case .number(let number)?: return number.intValue
    default: return nil
    }
  }
}
