import Foundation
import SNMWire

/// Sends requests through an ``HTTPTransport`` (``PlainHTTPTransport`` for `http://`,
/// ``CurlTransport`` for `https://`), adding the headers every Supabase request carries: `apikey`,
/// `Authorization: Bearer <token or key>`, `X-Client-Info`, and following redirects.
///
/// ```swift
/// let provider = SNMNetworkProvider(configuration: .init(apiKey: anonKey, timeout: 30))
/// let response = try await provider.send(endpoint, accessToken: sessionToken)
/// ```
///
/// `send` throws ``SNMNetworkError``: `.unreachable`, `.timedOut`, `.http` for non-2xx answers
/// (body decoded), `.malformedResponse`, `.cancelled` when the calling task is cancelled (the
/// transfer is stopped, not left running).
public final class SNMNetworkProvider: Sendable {
  public let configuration: Configuration
  /// `http://` requests (the local project): plain kept-alive sockets.
  let plain: any HTTPTransport
  /// `https://` requests (hosted projects).
  let secure: any HTTPTransport

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.plain = PlainHTTPTransport(maximumIdlePerHost: configuration.maximumConnectionsPerHost)
    self.secure = CurlTransport(
      maximumIdlePerHost: configuration.maximumConnectionsPerHost,
      certificateAuthorities: configuration.certificateAuthorities)
  }

  /// A provider whose requests go through `transport` whatever their scheme (tests).
  package init(configuration: Configuration, transport: any HTTPTransport) {
    self.configuration = configuration
    self.plain = transport
    self.secure = transport
  }

  /// Sends `request` and returns the 2xx answer.
  ///
  /// ```swift
  /// let rows = try await provider.send(endpoint, accessToken: token).json()
  /// ```
  ///
  /// - Parameter accessToken: the session's JWT for `Authorization`; nil sends the API key instead.
  ///   An `Authorization` header already on the endpoint is kept.
  /// - Throws: ``SNMNetworkError``; a request that cannot be built rethrows its own error.
  public func send(_ request: some SNMRequestConvertible, accessToken: String? = nil) async throws
    -> SNMResponse
  {
    let endpoint = try request.asEndpoint()
    return try await send(endpoint: endpoint, accessToken: accessToken)
  }

  /// Sends `endpoint` (typed-throws form of ``send(_:accessToken:)``).
  public func send(endpoint: Endpoint, accessToken: String? = nil) async throws(SNMNetworkError)
    -> SNMResponse
  {
    let url = endpoint.url
    guard Self.scheme(of: url) != nil else { throw .invalidURL(url) }
    if Task.isCancelled { throw .cancelled(url: url) }
    let timeout = endpoint.timeout ?? configuration.timeout
    let deadline = ContinuousClock.now + .seconds(timeout)
    var request = TransportRequest(
      method: endpoint.method, url: url,
      fields: Array(endpoint.headers) + addedFields(endpoint, accessToken: accessToken),
      body: endpoint.body, timeout: timeout, maximumBodyBytes: configuration.maximumBodyBytes)
    request.bodyFile = endpoint.bodyFile
    request.responseFile = endpoint.responseFile
    request.holdsSecrets = endpoint.holdsSecrets
    request.effect = endpoint.effect
    guard let trace = RequestTrace.current else {
      return try await exchange(request, deadline, for: endpoint)
    }
    let started = ContinuousClock.now
    do {
      let response = try await exchange(request, deadline, for: endpoint)
      trace.record(
        request, response: response, failure: nil, milliseconds: Self.milliseconds(since: started))
      return response
    } catch {
      trace.record(
        request, response: error.serverError?.response, failure: error,
        milliseconds: Self.milliseconds(since: started))
      throw error
    }
  }

  static func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
  }

  /// Sends `request` and follows its redirects within `deadline`; a non-2xx answer throws, and
  /// so does a 2xx answer without the body, or of another JSON shape, than `endpoint` (the one
  /// `request` was made from) says its answer has (``refusal(of:for:)``).
  func exchange(
    _ first: TransportRequest, _ deadline: ContinuousClock.Instant, for endpoint: Endpoint
  ) async throws(SNMNetworkError) -> SNMResponse {
    var request = first
    let url = request.url
    let timeout = request.timeout
    let scheme = Self.scheme(of: url) ?? "https"
    var response = try await (scheme == "http" ? plain : secure).send(request)
    var redirects = 0
    while let next = try Self.redirect(response, of: request, count: redirects) {
      redirects += 1
      request = next
      // Every hop shares the one deadline: --timeout bounds the whole request.
      let left = ContinuousClock.now.duration(to: deadline)
      request.timeout = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
      if request.timeout <= 0 { throw .timedOut(url: url, seconds: timeout) }
      let nextScheme = Self.scheme(of: next.url) ?? "https"
      response = try await (nextScheme == "http" ? plain : secure).send(request)
    }
    guard response.isSuccess else {
      var failure = SNMServerError(response: response)
      failure.effect = endpoint.sentEffect
      throw .http(failure)
    }
    if let refusal = try Self.refusal(of: response, for: endpoint) { throw refusal }
    return response
  }

  /// `http` or `https` for a URL with one of those schemes (any case), else nil.
  static func scheme(of url: String) -> String? {
    guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    let scheme = String(url[..<colon]).lowercased()
    return scheme == "http" || scheme == "https" ? scheme : nil
  }

  /// The fields every request carries unless the endpoint sets them: `apikey`, `Authorization`
  /// (the session's token, else a JWT-shaped key), `X-Client-Info`.
  func addedFields(_ endpoint: Endpoint, accessToken: String?) -> [HTTPHeaders.Field] {
    var fields: [HTTPHeaders.Field] = []
    if let apiKey = configuration.apiKey, !endpoint.headers.contains("apikey") {
      fields.append(.init(name: "apikey", value: apiKey))
    }
    if !endpoint.headers.contains("Authorization") {
      if let accessToken {
        fields.append(.init(name: "Authorization", value: "Bearer \(accessToken)"))
      } else if let apiKey = configuration.apiKey, !apiKey.hasPrefix("sb_") {
        fields.append(.init(name: "Authorization", value: "Bearer \(apiKey)"))
      }
    }
    if !endpoint.headers.contains("X-Client-Info") {
      fields.append(.init(name: "X-Client-Info", value: configuration.clientInfo))
    }
    return fields
  }
}
