import Foundation
import SNMNetwork
import SNMWire

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
  /// The body, checked but parsed only when ``value`` is first read: a result that is only
  /// printed can be walked a row at a time (``JSONDocument/withElements(_:)``).
  public let document: JSONDocument
  /// `Content-Range` as read (``ContentRange``); nil when the answer had none.
  public let range: ContentRange?

  /// The body: rows (an array), one object (`single`), an object or null (`maybeSingle`), whatever
  /// an rpc function returned, `.null` for an empty body, or `.string` with the text for CSV.
  /// Parsed on first use; every later read shares that tree.
  public var value: JSONValue { document.value }

  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when the body is not JSON,
  ///   `Content-Range` is not a range of rows (``ContentRange``) or a row lacks a key the select
  ///   list names (``checkKeys(of:for:answer:)``), and
  ///   ``SNMNetworkError/http(_:)`` with PGRST116 when `maybeSingle` got more than one row.
  init(request: SupabaseDBRequest, response: SNMResponse) throws(SNMNetworkError) {
    self.response = response
    if let text = response.headers["Content-Range"] {
      guard let range = ContentRange(text) else {
        throw .malformedResponse(
          url: response.url, reason: "its Content-Range \"\(text)\" is not a range of rows")
      }
      self.range = range
    } else {
      range = nil
    }
    if request.acceptsCSV || request.acceptsPlan {
      document = JSONDocument(.string(response.text))
      return
    }
    let checked = try response.document()
    if request.expectation == .maybeSingle, checked.shape.kind == .array {
      switch checked.shape.count {
      case 0: document = JSONDocument(.null)
      case 1: document = JSONDocument(checked.value[0] ?? .null)
      default: throw .http(Self.notOneRow(checked.shape.count, answer: response))
      }
    } else {
      document = checked
    }
    try Self.checkKeys(of: document, for: request, answer: response)
  }

  public static func == (lhs: SupabaseDBResponse, rhs: SupabaseDBResponse) -> Bool {
    lhs.response == rhs.response && lhs.value == rhs.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(response)
    hasher.combine(value)
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
  public var count: Int? { range?.total }
}
