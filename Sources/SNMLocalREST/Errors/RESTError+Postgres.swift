/// Postgres errors as PostgREST answers them: the SQLSTATE is the code, Postgres' message, detail
/// and hint are copied, and the status follows PostgREST's table (`Error.hs` `mapSQLtoHTTP`).
extension RESTError {
  /// The answer for a Postgres error raised while serving a request.
  ///
  ///     RESTError.postgres(sqlState: "23505", message: "duplicate key value ...",
  ///                        detail: "Key (id)=(1) already exists.", hint: nil, authenticated: true)
  ///     // 409 {"code":"23505","details":"Key (id)=(1) already exists.","hint":null,...}
  ///
  /// `authenticated` says whether the request carried a user's token: 42501 (insufficient
  /// privilege) is 401 for the anonymous role and 403 otherwise, as on Supabase.
  public static func postgres(
    sqlState: String, message: String, detail: String?, hint: String?, authenticated: Bool
  ) -> RESTError {
    if sqlState == "PGRST" { return raised(message: message, detail: detail) }
    let status = httpStatus(sqlState: sqlState, message: message, authenticated: authenticated)
    var headers: [(String, String)] = []
    if status == 401 { headers.append(("WWW-Authenticate", "Bearer")) }
    var error = RESTError(
      status: status, code: sqlState, message: message, details: .optional(detail),
      hint: .optional(hint), headers: headers)
    // `RAISE SQLSTATE 'PT402' USING message = 'Payment Required'`: the message is the status
    // line's reason phrase too.
    if sqlState.hasPrefix("PT"), Int(sqlState.dropFirst(2)) != nil { error.reason = message }
    return error
  }

  /// The HTTP status PostgREST gives a SQLSTATE.
  static func httpStatus(sqlState code: String, message: String, authenticated: Bool) -> Int {
    switch code {
    case "23503", "23505": return 409
    case "25006": return 405
    case "21000": return message.hasSuffix("requires a WHERE clause") ? 400 : 500
    case "22023":
      return message.hasPrefix("role") && message.hasSuffix("does not exist") ? 401 : 400
    case "53400": return 500
    case "57P01": return 503
    case "P0001": return 400
    case "42883": return message.hasPrefix("function xmlagg(") ? 406 : 404
    case "42P01": return 404
    case "42P17": return 500
    case "42501": return authenticated ? 403 : 401
    default: break
    }
    if code.hasPrefix("PT") {
      // PostgREST reads the digits after PT as the status; anything else is 500.
      guard let status = Int(code.dropFirst(2)), (100...999).contains(status) else { return 500 }
      return status
    }
    switch code.prefix(2) {
    case "08": return 503
    case "09": return 500
    case "0L", "0P": return 403
    case "25": return 500
    case "28": return 403
    case "2D", "38", "39", "3B", "40": return 500
    case "53": return 503
    case "54", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
    default: return 400
    }
  }
}
