@preconcurrency import CLibPQ
import Synchronization

/// One libpq connection. Statements are parameterised (`PQexecParams`, text in, text out).
///
/// ```swift
/// let connection = try PGConnection(conninfo: "host=/path/to/socket dbname=postgres user=authenticator")
/// let result = try connection.execute("select $1::int + 1 as n", ["41"])   // result.scalar == "42"
/// ```
/// Calls are serialised by a lock, so the object is `Sendable`; a pool hands each connection to one
/// request at a time (`PGPool`). Throws `PGError` (`.connection` when the link is gone).
public final class PGConnection: Sendable {
  let handle: Mutex<OpaquePointer?>
  /// Names of the statements prepared on this connection, by SQL text (`PGStatement.prepared`).
  let preparedStatements = Mutex(PreparedStatements())
  /// Statements prepared per connection at most; past it the least recently used is
  /// deallocated to make room.
  static let preparedLimit = 128
  /// What the pool needs to decide when to measure the backend's memory.
  let usage = Mutex(Usage())
  /// Set once a statement not declared known code has run (`ranOnlyKnownCode`).
  let ranOtherCode = Mutex(false)

  struct Usage {
    /// Uses since the backend's memory was last measured.
    var uses = 0
    /// Something since then may have grown it: a new prepared plan, or a long statement.
    var mayHaveGrown = false
  }

  /// Opens a connection with a libpq conninfo string.
  ///
  /// Throws `PGError` of kind `.connection` with libpq's message when the server cannot be reached.
  public init(conninfo: String) throws(PGError) {
    handle = Mutex(try Self.connect(conninfo))
  }

  /// A libpq connection to what `conninfo` names (`what` it is, for the message when there is no
  /// memory for it), for the caller to finish (`PQfinish`): this class's, or Realtime's
  /// replication connection. Throws `.client` when libpq cannot be loaded, `.connection` (08006)
  /// with libpq's message when the server cannot be reached.
  package static func connect(_ conninfo: String, what: String = "a connection") throws(PGError)
    -> OpaquePointer
  {
    if let missing = snm_libpq_load() {
      throw PGError(kind: .client, message: "\(String(cString: missing)) (install libpq5)")
    }
    guard let connection = PQconnectdb(conninfo) else {
      throw PGError(kind: .client, message: "out of memory opening \(what)")
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = trimmed(PQerrorMessage(connection))
      PQfinish(connection)
      throw PGError(kind: .connection, sqlState: "08006", message: message)
    }
    return connection
  }

  deinit {
    handle.withLock { connection in
      if let connection { PQfinish(connection) }
      connection = nil
    }
  }

  /// Runs one statement (no `;`-separated lists) with text parameters bound as `$1`, `$2`, ...
  ///
  /// Throws `PGError`: `.server` with SQLSTATE, message, detail and hint when the statement fails.
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> PGResult {
    try execute(PGStatement(sql, parameters))
  }

  /// Runs one `PGStatement`. Throws as `execute(_:_:)`.
  /// `knownCodeOnly`: the statement runs only Postgres's own functions and snm's own SQL
  /// (`ranOnlyKnownCode`).
  public func execute(
    _ statement: PGStatement, knownCodeOnly: Bool = false
  ) throws(PGError) -> PGResult {
    let started = monotonicSeconds()
    defer { noteUse(grew: false, seconds: monotonicSeconds() - started) }
    if !knownCodeOnly { noteOtherCode() }
    return try handle.withLock { connection throws(PGError) -> PGResult in
      guard let connection else { throw Self.closedError }
      let raw = try Self.withCStrings(statement.parameters) { values throws(PGError) in
        snm_pq_exec_text_params(connection, statement.sql, Int32(values.count), values)
      }
      return try Self.consume(raw, connection: connection)
    }
  }

  /// Sends several statements in one round trip (libpq pipeline mode) and returns their results.
  ///
  /// ```swift
  /// let results = try connection.pipeline([PGStatement("begin"), PGStatement("select 1")])
  /// ```
  /// Stops at the first failing statement and throws its `PGError`; the later ones are skipped.
  /// With an `interrupt`, the statements are cancelled when its deadline passes or its watched
  /// socket's peer hangs up; this then throws `PGError` of kind `.interrupted`.
  /// `knownCodeOnly`: the statements run only Postgres's own functions and snm's own SQL
  /// (`ranOnlyKnownCode`).
  public func pipeline(
    _ statements: [PGStatement], interrupt: PGInterrupt? = nil, knownCodeOnly: Bool = false
  ) throws(PGError) -> [PGResult] {
    if statements.count == 1 && !statements[0].prepared && interrupt == nil {
      return [try execute(statements[0], knownCodeOnly: knownCodeOnly)]
    }
    if !knownCodeOnly { noteOtherCode() }
    let started = monotonicSeconds()
    let (results, preparedBefore, preparedAfter) = try handle.withLock {
      connection throws(PGError) -> ([PGResult], Int, Int) in
      guard let connection else { throw Self.closedError }
      return try preparedStatements.withLock {
        prepared throws(PGError) -> ([PGResult], Int, Int) in
        let before = prepared.count
        let results = try Self.runPipeline(
          statements, connection: connection, prepared: &prepared, interrupt: interrupt)
        return (results, before, prepared.count)
      }
    }
    noteUse(grew: preparedAfter > preparedBefore, seconds: monotonicSeconds() - started)
    return results
  }

  /// Runs a script of several `;`-separated statements with no parameters (simple query protocol).
  ///
  /// Only for trusted SQL shipped with snm or written by the project's owner (bootstrap,
  /// migrations). Request data must never reach this: use `execute` with parameters.
  /// Throws `PGError` of the first failing statement.
  public func executeScript(_ sql: String) throws(PGError) {
    noteOtherCode()
    try handle.withLock { connection throws(PGError) in
      guard let connection else { throw Self.closedError }
      guard !sql.containsNUL else {
        throw PGError(kind: .client, message: "the script contains a NUL byte")
      }
      _ = try Self.consume(PQexec(connection, sql), connection: connection)
    }
  }

  /// True while every statement run on this connection was declared to run only known code:
  /// Postgres's own functions and snm's own SQL, no function written in the database (a policy's,
  /// an operator's, a trigger's, one a request calls). Such code may make a setting for the
  /// session (`set_config(name, value, false)`) that every later transaction on the connection
  /// sees; known code makes none, so a transaction of known code on a connection of which this
  /// is true sees only the settings the connection opened with and those it set itself.
  public var ranOnlyKnownCode: Bool { !ranOtherCode.withLock { $0 } }

  /// Records that code written in the database may have run on the connection after all: a
  /// read sent as known code under policies the schema cache took for claims code failed
  /// (`KnownCodeReads.pipeline`).
  public func noteOtherCode() {
    ranOtherCode.withLock { $0 = true }
  }

  /// True while the link is up and no transaction is left open (safe to hand to the next user).
  public var isReusable: Bool {
    handle.withLock { connection in
      guard let connection else { return false }
      return PQstatus(connection) == CONNECTION_OK
        && PQtransactionStatus(connection) == PQTRANS_IDLE
    }
  }

  /// True while a transaction block is open (or failed and not yet rolled back).
  public var isInTransaction: Bool {
    handle.withLock { connection in
      guard let connection else { return false }
      let status = PQtransactionStatus(connection)
      return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }
  }

  /// A setting the server reports as it changes (`DateStyle`, `TimeZone`, ...), nil when unknown.
  public func parameterStatus(_ name: String) -> String? {
    handle.withLock { connection in
      connection.flatMap { PQparameterStatus($0, name) }.map { String(cString: $0) }
    }
  }

  /// The server's version number (150018 for 15.18), 0 when unknown.
  public var serverVersion: Int {
    handle.withLock { connection in connection.map { Int(PQserverVersion($0)) } ?? 0 }
  }

  /// Closes the connection now; later calls throw `.connection`.
  public func close() {
    handle.withLock { connection in
      if let connection { PQfinish(connection) }
      connection = nil
    }
  }

  static let closedError = PGError(
    kind: .connection, sqlState: "08003", message: "the connection is closed")
}
