import Foundation

/// Why a request failed, told apart the way a user needs to act on it.
///
/// ```swift
/// do { _ = try await provider.send(endpoint) }
/// catch .unreachable(let url, let cause) { ... }     // not running? wrong --url?
/// catch .http(let failure) { print(failure.code) }    // the server said no
/// ```
public enum SNMNetworkError: Error, Sendable, Hashable {
  /// The URL could not be formed from the endpoint.
  case invalidURL(String)
  /// No connection: refused, host not found, network down. `cause` says which.
  case unreachable(url: String, cause: String)
  /// No complete answer within `seconds`. `answered`: the status of a 2xx answer whose head came
  /// over HTTP/2 while the request's body still went out, after which the server read no more of
  /// the body (libcurl sends on after a 2xx, as the server may read the rest yet).
  case timedOut(url: String, seconds: Double, answered: Int? = nil)
  /// The server answered with a non-2xx status.
  case http(SNMServerError)
  /// The answer could not be read: not HTTP, cut off, or a body that should be JSON and is not.
  case malformedResponse(url: String, reason: String)
  /// The calling task was cancelled before the answer came.
  case cancelled(url: String)
  /// A well-formed answer holding more than snm can take (JSON nested deeper than
  /// `JSONParser.maximumDepth`): exit 3, as an answer too large or not JSON.
  case beyondLimits(url: String, reason: String)
  /// A file on this machine the request sends or saves could not be read or written (a body
  /// file gone, the disk full); nothing was left half written.
  case localFile(TransportFileError)
}

extension SNMNetworkError: CustomStringConvertible {
  /// One lowercase message, never containing keys or tokens.
  public var description: String {
    switch self {
    case .invalidURL(let url): "invalid URL '\(url)'"
    case .unreachable(let url, let cause): "could not reach \(url): \(cause)"
    case .timedOut(let url, let seconds, nil):
      "no answer from \(url) within \(Self.format(seconds)) s (timed out)"
    case .timedOut(let url, let seconds, let status?):
      "\(url) answered (HTTP \(status)) before the request's body was sent whole, and read no more "
        + "of the body within \(Self.format(seconds)) s (timed out; the request may have been "
        + "applied)"
    case .http(let failure): failure.description
    case .malformedResponse(let url, let reason): "malformed answer from \(url): \(reason)"
    case .cancelled(let url): "request to \(url) cancelled"
    case .beyondLimits(let url, let reason): "the answer from \(url) \(reason)"
    case .localFile(let failure): failure.description
    }
  }

  /// The decoded server error for `.http`, else nil.
  public var serverError: SNMServerError? {
    if case .http(let failure) = self { return failure }
    return nil
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
