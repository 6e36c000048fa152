import Foundation
import SNMWire
import Synchronization

/// The requests and answers of a task, as `snm test --verbose` prints them and as a failing
/// file's report keeps its last ones: method and path, the headers that shape the answer, bodies
/// cut at ``bodyLimit`` bytes, the status, `Content-Range` and the time. Keys, tokens and
/// passwords never get in: `apikey` and `Authorization` are left out, and JSON members named
/// like a secret (``SecretMembers``: `password`, `access_token`, ...) show as `"********"`.
///
/// ```swift
/// let trace = RequestTrace(keep: 10)
/// try await RequestTrace.$current.withValue(trace) { try await provider.send(endpoint: e) }
/// trace.lines()   // ["> GET /rest/v1/dog?select=id", "< 200 Content-Range 0-9/42 (38 ms)", ...]
/// ```
public final class RequestTrace: Sendable {
  /// The trace of the task sending requests now (tasks it starts inherit it); nil: none kept.
  @TaskLocal public static var current: RequestTrace?

  /// The most of a body kept, in bytes.
  public static let bodyLimit = 1024

  /// Header names shown on a request and an answer (besides the status line).
  static let requestHeaders: Set<String> = [
    "prefer", "accept", "content-type", "accept-profile", "content-profile", "range",
  ]
  static let answerHeaders: Set<String> = ["preference-applied", "location", "content-type"]

  private let kept: Int?
  private let state = Mutex(Kept())
  private let onExchange: (@Sendable ([String]) -> Void)?

  /// Keeps the last `keep` exchanges (nil: all); `onExchange` sees each one's lines as it ends.
  public init(keep: Int? = nil, onExchange: (@Sendable ([String]) -> Void)? = nil) {
    self.kept = keep
    self.onExchange = onExchange
  }

  /// One request and what came of it.
  public struct Exchange: Sendable {
    public var lines: [String]
  }

  /// The exchanges kept: the last ones before the run's first failure (the failing one last), and
  /// once it is marked, the last ones after it (its `defer` statements' clean-up), so that the
  /// clean-up never pushes the failing request out.
  struct Kept {
    var before: [Exchange] = []
    var after: [Exchange] = []
    var failed = false
    /// Exchanges after the failure that were let go.
    var dropped = 0
  }

  /// The line between the exchanges up to the failure and those after it.
  public static let afterFailure = "--- after the failure ---"

  /// The lines of the exchanges kept, oldest first; after a ``markFailure()``, those up to the
  /// failure, then ``afterFailure`` and those after it.
  public func lines() -> [String] {
    state.withLock { kept in
      var lines = kept.before.flatMap(\.lines)
      guard kept.failed, !kept.after.isEmpty || kept.dropped > 0 else { return lines }
      lines.append(Self.afterFailure)
      if kept.dropped > 0 {
        lines.append("(\(kept.dropped) more exchanges after the failure not kept)")
      }
      return lines + kept.after.flatMap(\.lines)
    }
  }

  /// The run failed with the exchange recorded last (the failing statement's): the exchanges
  /// kept so far stay, and later ones are kept apart. Only the first call counts.
  public func markFailure() {
    state.withLock { $0.failed = true }
  }

  /// Notes `request` and its answer (or failure) after `milliseconds`.
  func record(
    _ request: TransportRequest, response: SNMResponse?, failure: SNMNetworkError?,
    milliseconds: Double
  ) {
    var lines = ["> \(request.method.rawValue) \(Self.pathAndQuery(request.url))"]
    for field in request.fields where Self.requestHeaders.contains(field.name.lowercased()) {
      lines.append("> \(field.name): \(field.value)")
    }
    if let body = request.body, !body.isEmpty {
      lines.append("> " + Self.shown(body, type: Self.value("content-type", in: request.fields)))
    } else if request.bodyFile != nil {
      lines.append("> (a file's bytes)")
    }
    let time = String(format: "%.0f ms", milliseconds)
    if let response {
      var status = "< \(response.status)"
      if let range = response.headers["Content-Range"] { status += " Content-Range \(range)" }
      lines.append(status + " (\(time))")
      for field in response.headers.fields
      where Self.answerHeaders.contains(field.name.lowercased()) {
        lines.append("< \(field.name): \(field.value)")
      }
      if !response.body.isEmpty {
        lines.append(
          "< " + Self.shown(response.body, type: response.headers["Content-Type"], answer: true))
      }
    } else if let failure {
      lines.append("< failed after \(time): \(failure.description)")
    }
    keep(Exchange(lines: lines.map(VisibleTextLine.escaped)))
  }

  /// Notes what is not an HTTP exchange but belongs among them (the events a failing Realtime
  /// expectation saw), kept and shown as one; control characters escaped.
  public func note(_ lines: [String]) {
    keep(Exchange(lines: lines.map(VisibleTextLine.escaped)))
  }

  private func keep(_ exchange: Exchange) {
    state.withLock { state in
      guard state.failed else {
        state.before.append(exchange)
        if let kept, state.before.count > kept {
          state.before.removeFirst(state.before.count - kept)
        }
        return
      }
      state.after.append(exchange)
      if let kept, state.after.count > kept {
        state.dropped += state.after.count - kept
        state.after.removeFirst(state.after.count - kept)
      }
    }
    onExchange?(exchange.lines)
  }

  static func value(_ name: String, in fields: [HTTPHeaders.Field]) -> String? {
    fields.first { $0.name.lowercased() == name }?.value
  }

  /// `/rest/v1/dog?select=id&age=gte.3`: the path and the decoded query, a `token=` masked.
  static func pathAndQuery(_ url: String) -> String {
    guard let components = URLComponents(string: url) else { return url }
    var text =
      components.percentEncodedPath.removingPercentEncoding ?? components.percentEncodedPath
    if let items = components.queryItems, !items.isEmpty {
      text +=
        "?"
        + items.map { item in
          let value =
            SecretMembers.isSecret(item.name) ? SecretMembers.replacement : (item.value ?? "")
          return item.value == nil ? item.name : "\(item.name)=\(value)"
        }.joined(separator: "&")
    }
    return text
  }

  /// A body as it is shown: JSON with its secrets masked, compact; other text as it is; cut.
  /// In an `answer` a `code` is the server's error code (42501, PGRST116), not a secret.
  static func shown(_ body: Data, type: String?, answer: Bool = false) -> String {
    var text: String
    if let value = try? JSONValue(parsing: body) {
      text = SecretMembers.masked(value, answer: answer).serialized()
    } else if let string = String(data: body, encoding: .utf8) {
      text = string
    } else {
      text = "(\(body.count) bytes)"
    }
    let total = text.utf8.count
    if total > bodyLimit {
      let cut = String(decoding: Array(text.utf8.prefix(bodyLimit)), as: UTF8.self)
      text = cut + " ... (cut at \(bodyLimit) of \(total) bytes)"
    }
    return text.replacingOccurrences(of: "\n", with: "\\n")
  }
}
