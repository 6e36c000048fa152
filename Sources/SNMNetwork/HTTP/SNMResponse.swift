import Foundation
import SNMWire

/// What the server answered: status, headers and the body bytes.
///
/// ```swift
/// let response = try await provider.send(endpoint)
/// let rows = try response.json()       // JSONValue, or .malformedResponse
/// response.headers["Content-Range"]     // "0-9/42"
/// ```
public struct SNMResponse: Sendable, Hashable {
  /// The URL that was requested.
  public let url: String
  public let status: Int
  public let headers: HTTPHeaders
  public let body: Data
  /// The file a 200 body was written to (``Endpoint/responseFile``); `body` is then empty.
  public let savedPath: String?
  /// How many bytes went into ``savedPath``.
  public let savedBytes: Int64
  /// The shape of a JSON body the transport checked as it arrived (``JSONStreamValidator``), so
  /// ``document()`` need not read it again; nil when it was not checked.
  public let checkedShape: JSONShape?
  /// What the sending task's ``ArrivingElements`` consumer made of the body's elements while it
  /// arrived (they were checked; the rest of the body came after); nil when none was handed over.
  public let arrived: (any ArrivingElementsConsumer)?
  /// Whether ``body`` is the pages of a temporary file the body spilled to as it arrived
  /// (``BodySpill``), mapped into memory: walking them a row at a time holds little of them.
  public let spilled: Bool
  /// Set when the server answered before the request's body was sent whole (``EarlyAnswer``):
  /// the rest of it was not sent.
  public var earlyAnswer: EarlyAnswer?

  /// An answer that came while the request's body still went out, over HTTP/2 with a status of
  /// 300 or more (a gateway's 413 for an upload past its limit, a 401 at the head): libcurl stops
  /// sending then, and 7.88 waited to the timeout for a stream the server had ended (curl issue
  /// 15316) where no reset came; the transport ends the transfer itself (``CurlTransfer``).
  public struct EarlyAnswer: Sendable, Hashable {
    /// What became of the answer's own fields and body.
    public enum Rest: Sendable, Hashable {
      /// Read: the answer named its length.
      case read
      /// Not waited for: the answer named no length (nothing says where it ends), and
      /// ``SNMResponse/body`` is empty.
      case notWaitedFor
      /// Dropped by libcurl: the server closed the stream once it had answered (RST_STREAM
      /// NO_ERROR, RFC 9113 §8.1: stop sending the body), and libcurl 7.88 then hands over
      /// nothing of the answer; only its status was read (``CurlTransfer/droppedStatus``).
      /// ``SNMResponse/headers`` and ``SNMResponse/body`` are empty.
      case dropped
    }

    public var rest: Rest

    public init(rest: Rest) {
      self.rest = rest
    }

    /// What happened, as a message's note says it.
    public var described: String {
      let said = "the server answered before the request's body was sent whole"
      switch rest {
      case .read: return said + ": the rest of it was not sent"
      case .notWaitedFor:
        return said + ": the rest of it was not sent, and the answer's body (of no stated length) "
          + "was not waited for"
      case .dropped:
        return said + " and closed its HTTP/2 stream (RST_STREAM NO_ERROR): the rest of it was not "
          + "sent, and libcurl 7.88 keeps nothing of such an answer but its status (its fields "
          + "and body, the server's message among them, were not read)"
      }
    }
  }

  public init(
    url: String, status: Int, headers: HTTPHeaders, body: Data, savedPath: String? = nil,
    savedBytes: Int64 = 0, checkedShape: JSONShape? = nil,
    arrived: (any ArrivingElementsConsumer)? = nil, spilled: Bool = false
  ) {
    self.url = url
    self.status = status
    self.headers = headers
    self.body = body
    self.savedPath = savedPath
    self.savedBytes = savedBytes
    self.checkedShape = checkedShape
    self.arrived = arrived
    self.spilled = spilled
  }

  /// Answers are the same when what the server sent is (how early it was checked is not).
  public static func == (lhs: SNMResponse, rhs: SNMResponse) -> Bool {
    lhs.url == rhs.url && lhs.status == rhs.status && lhs.headers == rhs.headers
      && lhs.body == rhs.body && lhs.savedPath == rhs.savedPath && lhs.savedBytes == rhs.savedBytes
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(url)
    hasher.combine(status)
    hasher.combine(headers)
    hasher.combine(body)
    hasher.combine(savedPath)
    hasher.combine(savedBytes)
  }

  /// `true` for 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }

  /// The body as UTF-8 text (invalid bytes replaced).
  public var text: String { String(decoding: body, as: UTF8.self) }

  /// The body parsed as JSON; an empty body is `.null` (PostgREST answers 201/204 with no body).
  ///
  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when the body is not JSON.
  public func json() throws(SNMNetworkError) -> JSONValue {
    if body.isEmpty { return .null }
    do {
      return try JSONValue(parsing: body)
    } catch {
      throw failure(error)
    }
  }

  /// The body checked as JSON but not built: ``JSONDocument/value`` parses it when first asked,
  /// and a result that is only printed can be walked a row at a time. An empty body is `.null`.
  ///
  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when the body is not JSON, with
  ///   the same reason ``json()`` gives.
  public func document() throws(SNMNetworkError) -> JSONDocument {
    if body.isEmpty { return JSONDocument(.null) }
    if let checkedShape {
      return JSONDocument(checked: body, shape: checkedShape, fileBacked: spilled)
    }
    do {
      return try JSONDocument(validating: body)
    } catch {
      throw failure(error)
    }
  }

  /// Why the body could not be taken: not JSON (the server's fault), or JSON nested deeper than
  /// snm takes (``SNMNetworkError/beyondLimits(url:reason:)``; both exit 3).
  public func failure(_ error: JSONParseError) -> SNMNetworkError {
    guard case .tooDeep(let limit) = error.reason else {
      return .malformedResponse(url: url, reason: "the body is not JSON: \(error.description)")
    }
    return .beyondLimits(
      url: url,
      reason: "nests arrays and objects more than \(limit) levels deep (at byte \(error.offset)), "
        + "deeper than snm takes")
  }
}
