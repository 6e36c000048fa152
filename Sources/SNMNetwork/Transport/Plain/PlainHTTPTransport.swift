import Foundation
import SNMWire

/// The ``HTTPTransport`` for `http://` URLs (the local project): ``PlainHTTPClient``'s kept-alive
/// sockets, one write and one blocking read per request, HTTP/1.1 only.
///
/// ```swift
/// let transport = PlainHTTPTransport(maximumIdlePerHost: 6)
/// let response = try await transport.send(TransportRequest(method: .get, url: url))
/// ```
/// Throws ``SNMNetworkError`` worded as the TLS transport words the same failure.
public final class PlainHTTPTransport: HTTPTransport {
  let client: PlainHTTPClient

  public init(maximumIdlePerHost: Int) {
    client = PlainHTTPClient(maximumIdlePerHost: maximumIdlePerHost)
  }

  public func send(_ request: TransportRequest) async throws(SNMNetworkError) -> SNMResponse {
    let address = request.url
    guard let url = URL(string: address), let host = url.host else {
      throw .invalidURL(address)
    }
    if Task.isCancelled { throw .cancelled(url: address) }
    var bodyFile: RequestBodyFile?
    if let path = request.bodyFile {
      do {
        bodyFile = try RequestBodyFile(path: path)
      } catch {
        throw .localFile(error)
      }
    }
    var plain = PlainHTTPClient.Request(
      method: request.method.rawValue, maySendAgain: request.maySendAgain,
      host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host,
      port: url.port ?? 80, target: Self.requestTarget(address), fields: request.fields,
      body: request.body, bodyFile: bodyFile, responseFile: request.responseFile,
      timeout: request.timeout, maximumBodyBytes: request.maximumBodyBytes,
      holdsSecrets: request.holdsSecrets)
    // Read here, in the sending task: the exchange may run on a thread of its own.
    plain.arriving = ArrivingElements.current
    let answer: PlainHTTPAnswer
    do {
      answer = try await client.perform(plain)
    } catch {
      throw error.networkError(for: request)
    }
    return SNMResponse(
      url: address, status: answer.status, headers: HTTPHeaders.merging(answer.headers),
      body: answer.body, savedPath: answer.savedPath, savedBytes: answer.savedBytes,
      checkedShape: answer.checkedShape, arrived: answer.arrived, spilled: answer.spilled)
  }

  /// The path and query of `url` exactly as written (`/rest/v1/t?id=eq.1`), `/` when empty.
  ///
  /// An ASCII URL (every URL a builder makes: values are percent-encoded) is cut on its
  /// contiguous bytes, without Foundation's `range(of:)`, a generic substring search, a walk by
  /// grapheme or by the view's indices on every request.
  static func requestTarget(_ url: String) -> String {
    var text = url
    return text.withUTF8 { bytes in
      var high: UInt8 = 0
      for byte in bytes { high |= byte }
      guard high < 0x80 else { return requestTargetAsText(url) }
      let start = afterScheme(bytes) ?? 0
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "#") { end += 1 }
      var cut = start
      while cut < end && bytes[cut] != UInt8(ascii: "/") && bytes[cut] != UInt8(ascii: "?") {
        cut += 1
      }
      guard cut < end else { return "/" }
      let target = String(decoding: UnsafeBufferPointer(rebasing: bytes[cut..<end]), as: UTF8.self)
      return bytes[cut] == UInt8(ascii: "?") ? "/" + target : target
    }
  }

  /// Where the text after the first `://` starts, if there is one.
  static func afterScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    while index + 2 < bytes.count {
      if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
        && bytes[index + 2] == UInt8(ascii: "/")
      {
        return index + 3
      }
      index += 1
    }
    return nil
  }

  /// `requestTarget` for a URL with non-ASCII characters, cut as text.
  static func requestTargetAsText(_ url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    guard let cut = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let target = rest[cut...]
    return target.hasPrefix("?") ? "/" + target : String(target)
  }
}

extension PlainHTTPFailure {
  /// The failure of `request` as the user meets it, naming its URL: also what the TLS transport
  /// says of a body it could not take (``ArrivingBody``).
  func networkError(for request: TransportRequest) -> SNMNetworkError {
    let url = request.url
    return switch self {
    case .unreachable(let cause): .unreachable(url: url, cause: cause)
    case .timedOut: .timedOut(url: url, seconds: request.timeout)
    case .cancelled: .cancelled(url: url)
    case .closedEarly:
      .malformedResponse(url: url, reason: TransportRequest.cutHeadReason(request.sentEffect))
    case .notSent:
      .malformedResponse(url: url, reason: TransportRequest.notSentReason)
    case .unanswered:
      .malformedResponse(url: url, reason: TransportRequest.unansweredReason(request.sentEffect))
    case .malformed(let reason): .malformedResponse(url: url, reason: reason)
    case .tooLarge(let limit):
      .malformedResponse(url: url, reason: TransportRequest.tooLargeReason(limit))
    case .localFile(let failure): .localFile(failure)
    }
  }
}
