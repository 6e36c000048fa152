import SNMNetwork
import SNMSupabase
import SNMWire

/// The answer a statement got, for the `expect` statements after it: statements return it in
/// their ``StatementResult``, the script runner keeps the last one.
///
/// ```swift
/// return .succeeded(.answered(response))                         // a query or rpc that succeeded
/// return .failed(StatementFailure(.server, outcome: .failed(error)))  // one that failed
/// ```
/// `expect rows` reads `rowCount`, `expect status` reads `status`, `expect error [code]` reads
/// `failure`.
public struct StatementOutcome: Sendable, Equatable {
  /// The HTTP status of the answer, success or error; nil when no answer came.
  public var status: Int?
  /// The result as received, parsed only if ``value`` is read.
  public var document: JSONDocument
  /// The decoded result: rows, one object, a scalar, or null for an empty body (parsed on first
  /// read, so a result that was only printed never builds its tree).
  public var value: JSONValue {
    get { document.value }
    set { document = JSONDocument(newValue) }
  }
  /// How many rows came back (an object counts as one; an empty body counts the rows the server
  /// says it touched in `Content-Range`).
  public var rowCount: Int
  /// Why the statement failed; nil when it succeeded.
  public var failure: Failure?
  /// The answer's headers (nil when no answer came), for `expect header` and `$last.headers`.
  public var headers: HTTPHeaders?
  /// How long the request took, for `expect time` and `$last.time_ms`.
  public var milliseconds: Double?
  /// The server's row cap when the answer had exactly that many rows and is, or may be, cut by
  /// it (``RowCapCheck``): `expect rows` says so when it fails.
  public var rowCap: Int?
  /// `$last.body` holds the answer (`invoke` and `request`, whose bodies are what they are for).
  public var keepsBody = false

  /// A failed statement: the server's code (`23505`, `PGRST116`, `invalid_credentials`) when it
  /// named one, and its first line of explanation.
  public struct Failure: Sendable, Equatable {
    public var code: String?
    public var message: String
  }

  public init(status: Int?, value: JSONValue, rowCount: Int, failure: Failure? = nil) {
    self.init(status: status, document: JSONDocument(value), rowCount: rowCount, failure: failure)
  }

  public init(status: Int?, document: JSONDocument, rowCount: Int, failure: Failure? = nil) {
    self.status = status
    self.document = document
    self.rowCount = rowCount
    self.failure = failure
  }

  /// A successful answer from the REST API (its body is not parsed here).
  public static func answered(_ response: SupabaseDBResponse) -> StatementOutcome {
    var outcome = answered(
      document: response.document, status: response.status,
      contentRange: response.headers["Content-Range"])
    outcome.headers = response.headers
    return outcome
  }

  /// A successful answer: `value` as decoded, with the status and `Content-Range` it came with.
  public static func answered(value: JSONValue, status: Int?, contentRange: String? = nil)
    -> StatementOutcome
  {
    answered(document: JSONDocument(value), status: status, contentRange: contentRange)
  }

  /// A successful answer: the rows are counted from the document's shape, not its tree.
  public static func answered(document: JSONDocument, status: Int?, contentRange: String? = nil)
    -> StatementOutcome
  {
    let rows: Int
    switch document.shape.kind {
    case .array: rows = document.shape.count
    case .null: rows = contentRange.flatMap(ContentRange.init)?.rows ?? 0
    default: rows = 1
    }
    return StatementOutcome(status: status, document: document, rowCount: rows)
  }

  public static func == (lhs: StatementOutcome, rhs: StatementOutcome) -> Bool {
    lhs.status == rhs.status && lhs.rowCount == rhs.rowCount && lhs.failure == rhs.failure
      && (lhs.document === rhs.document || lhs.value == rhs.value)
  }

  /// A statement that did not succeed, from the error it failed with.
  public static func failed(_ error: any Error) -> StatementOutcome {
    var status: Int? = nil
    var headers: HTTPHeaders? = nil
    let failure: Failure
    switch error {
    case let network as SNMNetworkError:
      if let server = network.serverError {
        headers = server.response.headers
        // Storage's errors carry their real status in the body (the HTTP status is 400).
        status = server.storageStatusCode ?? server.status
        failure = Failure(
          code: server.code?.rawValue,
          message: server.message ?? "the server answered \(server.status)")
      } else {
        failure = Failure(code: nil, message: network.description)
      }
    case let auth as SupabaseAuthError:
      status = auth.status
      failure = Failure(
        code: auth.code == .unknown ? nil : auth.code.rawValue, message: auth.message)
    default:
      failure = Failure(code: nil, message: "\(error)")
    }
    var outcome = StatementOutcome(status: status, value: .null, rowCount: 0, failure: failure)
    outcome.headers = headers
    return outcome
  }

  /// A failure known only by its message (a refused sign-in, a value that could not be filled in).
  public static func failed(code: String? = nil, message: String, status: Int? = nil)
    -> StatementOutcome
  {
    StatementOutcome(
      status: status, value: .null, rowCount: 0, failure: Failure(code: code, message: message))
  }
}
