import Foundation
import SNMNetwork

/// A successful answer: the decoded value, the HTTP status and the count PostgREST reported.
///
/// ```swift
/// let response = try await remoteDBManager.fetchData().setTable("dog")
///   .setQuery(.select("*"), .count(.exact)).request()
/// response.value    // [{"id":1,...}, ...]
/// response.count    // 42, from Content-Range: 0-9/42
/// ```
public struct SupabaseDBResponse: Sendable, Hashable {
  /// The answer as received.
  public let response: SNMResponse
  /// The body: rows (an array), one object (`single`), an object or null (`maybeSingle`), whatever
  /// an rpc function returned, `.null` for an empty body, or `.string` with the text for CSV.
  public let value: JSONValue

  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when the body is not JSON, and
  ///   ``SNMNetworkError/http(_:)`` with PGRST116 when `maybeSingle` got more than one row.
  init(request: SupabaseDBRequest, response: SNMResponse) throws(SNMNetworkError) {
    self.response = response
    if request.acceptsCSV {
      value = .string(response.text)
      return
    }
    let decoded = try response.json()
    guard request.expectation == .maybeSingle, case .array(let rows) = decoded else {
      value = decoded
      return
    }
    switch rows.count {
    case 0: value = .null
    case 1: value = rows[0]
    default: throw .http(Self.notOneRow(rows.count, answer: response))
    }
  }

  /// The error PostgREST itself sends for `single` (v13 wording), for `maybeSingle` with many rows.
  static func notOneRow(_ count: Int, answer: SNMResponse) -> SNMServerError {
    let body: JSONValue = [
      "code": .string(SNMErrorCode.notOneRow.rawValue),
      "details": .string("The result contains \(count) rows"), "hint": nil,
      "message": "Cannot coerce the result to a single JSON object",
    ]
    return SNMServerError(
      response: SNMResponse(
        url: answer.url, status: 406, headers: answer.headers, body: Data(body.serializedBytes())))
  }

  public var status: Int { response.status }
  public var headers: HTTPHeaders { response.headers }

  /// The total after `/` in `Content-Range` (`0-9/42` -> 42); nil when the server did not count.
  public var count: Int? {
    guard let range = response.headers["Content-Range"], let slash = range.lastIndex(of: "/") else {
      return nil
    }
    return Int(range[range.index(after: slash)...])
  }
}
