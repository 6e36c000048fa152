import SNMWire

/// `RAISE SQLSTATE 'PGRST'`: a function takes the whole error answer in hand, as PostgREST 13
/// applies it (Error.hs `parseRaisePGRST`). The MESSAGE is the body, the DETAIL the status line
/// and headers:
///
///     raise sqlstate 'PGRST' using
///       message = '{"code":"123","message":"ABC","details":"DEF","hint":"XYZ"}',
///       detail = '{"status":332,"status_text":"My Custom Status","headers":{"X-Header":"str"}}';
///     // HTTP/1.1 332 My Custom Status, X-Header: str, Proxy-Status: PostgREST; error=123
///     // {"code":"123","details":"DEF","hint":"XYZ","message":"ABC"}
///
/// MESSAGE needs `code` and `message` (strings), `details` and `hint` may be strings or null;
/// DETAIL needs `status` (a whole number) and `headers` (an object of strings), `status_text` may
/// be a string. Anything else is 500 PGRST121, saying which part could not be read.
extension RESTError {
  static func raised(message: String, detail: String?) -> RESTError {
    guard let body = raisedBody(message) else {
      return unreadableRaise(
        "Invalid JSON value for MESSAGE: '\(message)'",
        hint: "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional "
          + "keys: 'details', 'hint'.")
    }
    let detailHint =
      "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: "
      + "'status_text'."
    guard let detail else {
      return unreadableRaise("DETAIL is missing in the RAISE statement", hint: detailHint)
    }
    guard let answer = raisedAnswer(detail) else {
      return unreadableRaise("Invalid JSON value for DETAIL: '\(detail)'", hint: detailHint)
    }
    var error = RESTError(
      status: answer.status, code: body.code, message: body.message, details: body.details,
      hint: body.hint, headers: answer.headers)
    error.reason = answer.statusText
    return error
  }

  /// 500 PGRST121: the RAISE's MESSAGE or DETAIL is not what PostgREST reads.
  private static func unreadableRaise(_ details: String, hint: String) -> RESTError {
    RESTError(
      status: 500, code: "PGRST121",
      message: "Could not parse JSON in the \"RAISE SQLSTATE 'PGRST'\" error",
      details: .string(details), hint: .string(hint))
  }

  /// MESSAGE's code, message, details and hint; nil when it is not such an object.
  private static func raisedBody(
    _ text: String
  ) -> (code: String, message: String, details: JSONValue, hint: JSONValue)? {
    guard let object = try? JSONValue(parsing: text), object.objectValue != nil,
      let code = object["code"]?.stringValue, let message = object["message"]?.stringValue,
      let details = optionalText(object["details"]), let hint = optionalText(object["hint"])
    else { return nil }
    return (code, message, details, hint)
  }

  /// DETAIL's status, status text and headers (in name order, as PostgREST's map gives them);
  /// nil when it is not such an object.
  private static func raisedAnswer(
    _ text: String
  ) -> (status: Int, statusText: String?, headers: [(String, String)])? {
    guard let object = try? JSONValue(parsing: text), object.objectValue != nil,
      let number = object["status"]?.numberValue, number.isInteger,
      let status = Int(number.text), (100...999).contains(status),
      let fields = object["headers"]?.objectValue
    else { return nil }
    var statusText: String?
    if let value = object["status_text"], !value.isNull {
      guard let text = value.stringValue else { return nil }
      statusText = text
    }
    var headers: [(String, String)] = []
    for (name, value) in fields {
      guard let text = value.stringValue else { return nil }
      headers.append((name, text))
    }
    headers.sort { $0.0 < $1.0 }
    return (status, statusText, headers)
  }

  /// A string or null as it is, absent as null; nil for any other kind.
  private static func optionalText(_ value: JSONValue?) -> JSONValue? {
    guard let value else { return .null }
    return value.isNull || value.stringValue != nil ? value : nil
  }
}
