import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends requests over one reused URLSession (connections kept alive), adding the headers every
/// Supabase request carries: `apikey`, `Authorization: Bearer <token or key>`, `X-Client-Info`.
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
  /// Made on the first send: `snm explain` and a prompt that sends nothing never pay for it
  /// (a sixth of `snm explain`'s instructions).
  private let lazySession = Mutex<URLSession?>(nil)
  /// `http://` requests (the local project) go over plain kept-alive sockets instead.
  let plain: PlainHTTPClient

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.plain = PlainHTTPClient(maximumIdlePerHost: configuration.maximumConnectionsPerHost)
  }

  deinit {
    lazySession.withLock { $0?.finishTasksAndInvalidate() }
  }

  /// The one URLSession every request goes through (connections kept alive).
  private var session: URLSession {
    lazySession.withLock { session in
      if let session { return session }
      let sessionConfiguration = URLSessionConfiguration.ephemeral
      sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
      sessionConfiguration.timeoutIntervalForResource = max(configuration.timeout, 1) * 2
      sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
      sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
      sessionConfiguration.urlCache = nil
      sessionConfiguration.httpCookieStorage = nil
      let made = URLSession(configuration: sessionConfiguration)
      session = made
      return made
    }
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
    guard let requestURL = URL(string: url),
      ["http", "https"].contains(requestURL.scheme?.lowercased()),
      requestURL.host != nil
    else {
      throw .invalidURL(url)
    }
    if requestURL.scheme?.lowercased() == "http" {
      if Task.isCancelled { throw .cancelled(url: url) }
      return try await sendPlain(endpoint, url: requestURL, accessToken: accessToken)
    }
    let urlRequest = makeURLRequest(endpoint, url: requestURL, accessToken: accessToken)
    let timeout = urlRequest.timeoutInterval
    if Task.isCancelled { throw .cancelled(url: url) }

    let outcome = await transfer(urlRequest)
    switch outcome {
    case .failure(let error):
      throw Self.classify(error, url: url, timeout: timeout)
    case .success(let (data, urlResponse)):
      guard let http = urlResponse as? HTTPURLResponse else {
        throw .malformedResponse(url: url, reason: "not an HTTP answer")
      }
      let response = SNMResponse(
        url: url, status: http.statusCode, headers: Self.headers(of: http), body: data)
      guard response.isSuccess else { throw .http(SNMServerError(response: response)) }
      return response
    }
  }

  func makeURLRequest(_ endpoint: Endpoint, url: URL, accessToken: String?) -> URLRequest {
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = endpoint.method.rawValue
    urlRequest.timeoutInterval = endpoint.timeout ?? configuration.timeout
    for field in endpoint.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    for field in addedFields(endpoint, accessToken: accessToken) {
      urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
    }
    urlRequest.httpBody = endpoint.body
    return urlRequest
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

  /// Runs one data task; cancelling the calling task cancels the transfer.
  private func transfer(_ urlRequest: URLRequest) async -> Result<(Data, URLResponse), any Error> {
    let handle = TransferHandle()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let task = session.dataTask(with: urlRequest) { data, response, error in
          if let error {
            continuation.resume(returning: .failure(error))
          } else if let response {
            continuation.resume(returning: .success((data ?? Data(), response)))
          } else {
            continuation.resume(returning: .failure(URLError(.badServerResponse)))
          }
        }
        handle.start(task)
      }
    } onCancel: {
      handle.cancel()
    }
  }

  /// Maps a URLSession failure to what the user can act on.
  static func classify(_ error: any Error, url: String, timeout: TimeInterval) -> SNMNetworkError {
    guard let urlError = error as? URLError else {
      return .unreachable(url: url, cause: String(describing: error))
    }
    switch urlError.code {
    case .cancelled: return .cancelled(url: url)
    case .timedOut: return .timedOut(url: url, seconds: timeout)
    case .cannotConnectToHost: return .unreachable(url: url, cause: "connection refused")
    case .cannotFindHost, .dnsLookupFailed: return .unreachable(url: url, cause: "host not found")
    case .notConnectedToInternet: return .unreachable(url: url, cause: "network is unreachable")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      return .unreachable(
        url: url, cause: "TLS handshake failed (\(urlError.localizedDescription))")
    case .networkConnectionLost:
      return .malformedResponse(url: url, reason: "the connection closed before a complete answer")
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
      .zeroByteResource, .unsupportedURL:
      // The scheme was checked before sending, so `unsupportedURL` here is curl refusing the answer
      // (for example "Received HTTP/0.9 when not allowed").
      let detail = urlError.localizedDescription
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
    default:
      let detail = urlError.localizedDescription
      // curl's CURLE_PARTIAL_FILE, which FoundationNetworking leaves without a URLError code: the
      // server went away while the body came. Nothing of it may be shown as a result.
      if detail.hasPrefix("transfer closed with") {
        return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
      }
      return .unreachable(url: url, cause: detail)
    }
  }

  static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
    let fields = response.allHeaderFields.compactMap { key, value -> HTTPHeaders.Field? in
      guard let name = key as? String else { return nil }
      return HTTPHeaders.Field(name: name, value: String(describing: value))
    }
    return HTTPHeaders(fields.sorted { $0.name.lowercased() < $1.name.lowercased() })
  }
}
