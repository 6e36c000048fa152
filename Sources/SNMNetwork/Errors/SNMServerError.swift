import Foundation
import SNMWire

/// A non-2xx answer, with the error body decoded when it is the JSON PostgREST or GoTrue send.
///
/// PostgREST sends `{"code", "message", "details", "hint"}` where `details` is a string, null or an
/// array; GoTrue sends `{"code", "message"}`, `{"code": 400, "error_code", "msg"}` or
/// `{"error", "error_description"}`. All of them land in the same fields here.
///
/// ```swift
/// catch SNMNetworkError.http(let failure) where failure.code == .uniqueViolation {
///   print(failure.message ?? "")   // duplicate key value violates unique constraint "user_pkey"
/// }
/// ```
public struct SNMServerError: Error, Sendable, Hashable {
  /// The HTTP status (400, 401, 404, 406, 409, ...).
  public let status: Int
  /// The server's error code, when the body named one.
  public let code: SNMErrorCode?
  /// The human-readable message, when the body had one.
  public let message: String?
  /// PostgREST's `details` exactly as sent: a string, `null` or an array (nil when absent).
  public let details: JSONValue?
  /// PostgREST's `hint`, when it is a string.
  public let hint: String?
  /// The whole answer (body and headers) for anything the fields above do not hold.
  public let response: SNMResponse
  /// What the request may have done (``Endpoint/sentEffect``): after one that writes or calls a
  /// function, a gateway's 502 or 504 leaves unknown whether it was applied.
  public var effect = Endpoint.Effect.reads

  /// Decodes the error fields from `response`'s body when it is a JSON object; otherwise they stay
  /// nil and ``response`` keeps the body.
  public init(response: SNMResponse) {
    self.status = response.status
    self.response = response
    guard !response.body.isEmpty, case .object(let body)? = try? JSONValue(parsing: response.body)
    else {
      code = nil
      message = nil
      details = nil
      hint = nil
      return
    }
    if let text = body["error_code"]?.stringValue ?? body["code"]?.stringValue {
      code = SNMErrorCode(text)
    } else if let text = body["error"]?.stringValue, body["error_description"] != nil {
      code = SNMErrorCode(text)
    } else {
      code = nil
    }
    message =
      body["message"]?.stringValue ?? body["msg"]?.stringValue
      ?? body["error_description"]?.stringValue ?? body["error"]?.stringValue
    details = body["details"]
    hint = body["hint"]?.stringValue
  }

  /// `details` as one line: the string itself, array elements joined with `; `, nil for null/absent.
  public var detailsText: String? {
    switch details {
    case .string(let text)?: text
    case .array(let items)?: items.map { $0.stringValue ?? $0.serialized() }.joined(separator: "; ")
    case nil, .null?: nil
    case let other?: other.serialized()
    }
  }
}

extension SNMServerError: CustomStringConvertible {
  /// `server answered 409: duplicate key ... (23505)`, then `details:` and `hint:` lines when present;
  /// a body that is not a JSON error is quoted (first 200 characters).
  public var description: String {
    var text = "server answered \(status)"
    if let message {
      text += ": " + message
      if let code { text += " (\(code))" }
    } else if let code {
      text += ": \(code)"
    } else if !response.body.isEmpty {
      let body = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
      text += ": " + (body.count > 200 ? String(body.prefix(200)) + "..." : body)
    }
    if let detailsText { text += "\ndetails: " + detailsText }
    if let hint { text += "\nhint: " + hint }
    return text
  }
}
