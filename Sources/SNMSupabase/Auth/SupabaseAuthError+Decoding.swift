import Foundation
import SNMNetwork

extension SupabaseAuthError {
  /// Decodes GoTrue's error body, whichever of its formats the server used:
  /// - `{"code": "<error_code>", "message": "..."}` (with `X-Supabase-Api-Version: 2024-01-01`),
  /// - `{"code": 400, "error_code": "...", "msg": "..."}` (legacy, without the header),
  /// - `{"error": "invalid_grant", "error_description": "..."}` (OAuth style).
  ///
  /// ```swift
  /// let error = SupabaseAuthError(status: 400, body: data, headerCode: headers["x-sb-error-code"])
  /// ```
  /// A body that is not a JSON object still gives an error: the `x-sb-error-code` header's code
  /// (when sent) and a message naming the status.
  public init(status: Int, body: Data, headerCode: String? = nil) {
    let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    let codeText =
      Self.text(object["error_code"]) ?? Self.text(object["code"]) ?? Self.text(object["error"])
      ?? headerCode.flatMap { $0.isEmpty ? nil : $0 }
    let message =
      Self.text(object["message"]) ?? Self.text(object["msg"])
      ?? Self.text(object["error_description"]) ?? Self.text(object["error"])
      ?? Self.statusText(status)
    let weak = object["weak_password"] as? [String: Any]
    let reasons = (weak?["reasons"] as? [Any])?.compactMap { $0 as? String } ?? []
    self.init(
      status: status, code: codeText.map(AuthErrorCode.init(rawValue:)) ?? .unknown,
      message: message, weakPasswordReasons: reasons)
  }

  /// The refusal in a non-2xx answer the provider reported.
  public init(answer failure: SNMServerError) {
    self.init(
      status: failure.status, body: failure.response.body,
      headerCode: failure.response.headers["x-sb-error-code"])
    retryAfter = failure.response.headers["Retry-After"]
    path = URLComponents(string: failure.response.url)?.path
  }

  /// A string member; the legacy integer `code` (the HTTP status) is not an error code.
  private static func text(_ value: Any?) -> String? {
    guard let string = value as? String, !string.isEmpty else { return nil }
    return string
  }

  private static func statusText(_ status: Int) -> String {
    switch status {
    case 400: "bad request"
    case 401: "unauthorized"
    case 403: "forbidden"
    case 404: "not found (is this a Supabase project URL?)"
    case 422: "unprocessable request"
    case 429: "too many requests"
    case 500..<600: "server error"
    default: "unexpected status"
    }
  }
}
