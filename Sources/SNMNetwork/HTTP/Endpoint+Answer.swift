import SNMWire

extension Endpoint {
  /// The JSON a 2xx answer's body must be at its top level, and what it holds, for the message
  /// that refuses another: PostgREST answers a read with an array of rows (`[]` for none) and
  /// `single` with one object; Storage lists in arrays and answers the rest with objects.
  ///
  /// ```swift
  /// endpoint.answerShape = .array(of: "rows")
  /// // a 200 answer `null` then fails: malformed answer from URL: null (HTTP 200) where an
  /// // array of rows belongs (...)
  /// ```
  public struct AnswerShape: Sendable, Hashable {
    /// The top-level JSON type the answer must have.
    public let kind: JSONShape.Kind
    /// What it holds: `rows`, `buckets` (an array of them), `the row` (an object).
    public let holding: String
    /// A key the object must have, not null (a GoTrue user's `id`); nil for any object.
    public let key: String?

    /// An array of `holding` (`rows`, `objects`).
    public static func array(of holding: String) -> AnswerShape {
      AnswerShape(kind: .array, holding: holding, key: nil)
    }

    /// An object, `holding` (`the row`, `the object's info`), with `key` when one is named: the
    /// field snm reads first (an answer without it is no answer to the request).
    public static func object(_ holding: String, with key: String? = nil) -> AnswerShape {
      AnswerShape(kind: .object, holding: holding, key: key)
    }

    /// `an array of rows`, `an object (the row)`, `an object with 'id' (the user)`: what
    /// belongs, as a message says it.
    var described: String {
      if kind == .array { return "an array of \(holding)" }
      return key.map { "an object with '\($0)' (\(holding))" } ?? "an object (\(holding))"
    }
  }

  /// What sending a request may do to the project: what a failure after it went out (a
  /// gateway's 502, an answer refused as malformed) says may have happened. A statement's kind
  /// decides, not its method: `storage ls` is a POST that reads, `rpc get` runs read-only.
  public enum Effect: Sendable, Hashable {
    /// It reads: nothing to say.
    case reads
    /// It writes (insert, update, delete, an upload, a bucket made or dropped).
    case writes
    /// It calls a function by POST, which may write.
    case callsFunction

    /// A request's effect as its method says: a POST, PUT, PATCH or DELETE writes
    /// (``HTTPMethod/isWrite``), any other reads.
    public init(sending method: HTTPMethod) {
      self = method.isWrite ? .writes : .reads
    }

    /// What may have happened, for a failure's message, with what to do: nil for a read.
    public var mayHaveApplied: String? {
      switch self {
      case .reads: nil
      case .writes: "\(mayHaveBeenApplied ?? ""); look before sending it again"
      case .callsFunction: "\(mayHaveBeenApplied ?? ""); look before calling it again"
      }
    }

    /// What may have happened, alone (`the write may have been applied`, `the call may have been
    /// applied (a function may write)`), as a transport's failure says it: nil for a read.
    public var mayHaveBeenApplied: String? {
      switch self {
      case .reads: nil
      case .writes: "the write may have been applied"
      case .callsFunction: "the call may have been applied (a function may write)"
      }
    }
  }

  /// ``effect`` when the request's maker set it, else its method's (``Effect/init(sending:)``).
  public var sentEffect: Effect {
    effect ?? Effect(sending: method)
  }
}
