import SNMGateway
import SNMWire

/// `response.status` and `response.headers`: a function, trigger or the pre-request function
/// changes the answer by setting them (`set_config('response.headers', '[{"X-A": "1"}]', true)`),
/// as PostgREST reads them (Response.hs `overrideStatusHeaders`).
extension RESTGateway {
  /// The answer with the request's own status and headers, if it set any: a header it set
  /// replaces the gateway's of the same name, and its status replaces the gateway's.
  ///
  /// Throws 500 PGRST111 when `response.headers` is not a JSON array of objects with one string
  /// member each, 500 PGRST112 when `response.status` is not a status code.
  static func applyingResponseSettings(
    _ response: consuming HTTPResponse, row: ResultRow
  ) throws(RESTError) -> HTTPResponse {
    // Consumed: the answer is moved through, not copied (most rows set neither).
    var response = response
    if let text = row.responseStatus {
      let digits = text.prefix { $0.isASCII && $0.isNumber }
      guard let status = Int(digits), (100...999).contains(status) else {
        throw RESTError(
          status: 500, code: "PGRST112", message: "response.status guc must be a valid status code")
      }
      response.status = status
    }
    if let text = row.responseHeaders {
      let invalid = RESTError(
        status: 500, code: "PGRST111",
        message:
          "response.headers guc must be a JSON array composed of objects with a single key and a string value"
      )
      guard let items = (try? JSONValue(parsing: text))?.arrayValue else { throw invalid }
      var own: [HTTPHeaders.Field] = []
      for item in items {
        guard let members = item.objectValue, members.count == 1,
          let member = members.first, let value = member.value.stringValue,
          Self.isHeaderText(member.key, name: true), Self.isHeaderText(value, name: false)
        else { throw invalid }
        own.append(HTTPHeaders.Field(name: member.key, value: value))
      }
      let kept = response.headers.fields.filter { field in
        !own.contains { HTTPHeaders.sameName($0.name, field.name) }
      }
      response.headers = HTTPHeaders(kept + own)
    }
    return response
  }

  /// Header names are tokens; values hold no control characters but tab (so nothing a function
  /// sets can split the answer).
  private static func isHeaderText(_ text: String, name: Bool) -> Bool {
    if name {
      return !text.isEmpty
        && text.utf8.allSatisfy {
          $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0)
        }
    }
    return text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
  }
}

extension RESTGateway.Context {
  /// The body bytes of a result row for the negotiated handler.
  func body(_ row: ResultRow) -> [UInt8] {
    if case .custom(let handler) = handler { return row.bodyBytes(binary: handler.isBinary) }
    return row.bodyUTF8
  }
}
