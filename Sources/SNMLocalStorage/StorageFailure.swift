import SNMGateway
import SNMWire

/// An error the Storage API answers, in its shape:
/// `{"statusCode": "404", "code": "NoSuchKey", "error": "not_found", "message": "Object not found"}`.
///
/// As Supabase Storage does, the HTTP status is 400 for every error but a 500 (the real status
/// is the body's `statusCode`), unless the error says otherwise (416 for a bad range, 403 for a
/// role that may not do something, 544 for a database timeout).
///
/// ```swift
/// throw StorageFailure.noSuchKey("a/b.png")
/// failure.response   // HTTP 400, body {"statusCode":"404",...}
/// ```
package struct StorageFailure: Error, Sendable, Equatable {
  /// The body's `statusCode` (404, 403, 409, 413, 415, 400, 500, ...).
  var statusCode: Int
  /// Storage's `ErrorCode` (`NoSuchKey`, `AccessDenied`, ...).
  var code: String
  /// The older `error` field (`not_found`, `Duplicate`, `Unauthorized`); the code when unset.
  var error: String
  package var message: String
  /// The HTTP status when it is not Storage's usual 400 (or 500).
  var httpStatus: Int?
  /// The request body was not read to its end: the connection cannot be kept.
  var closesConnection = false

  init(
    _ statusCode: Int, _ code: String, error: String? = nil, _ message: String,
    httpStatus: Int? = nil
  ) {
    self.statusCode = statusCode
    self.code = code
    self.error = error ?? code
    self.message = message
    self.httpStatus = httpStatus
  }

  /// The answer: Storage's status rule and body, `Connection: close` when the body was not read.
  var response: HTTPResponse {
    let status = httpStatus ?? (statusCode == 500 ? 500 : 400)
    var headers = HTTPHeaders()
    if closesConnection { headers["Connection"] = "close" }
    return .json(
      status: status,
      .object([
        .init("statusCode", .string(String(statusCode))), .init("code", .string(code)),
        .init("error", .string(error)), .init("message", .string(message)),
      ]), headers: headers)
  }
}
