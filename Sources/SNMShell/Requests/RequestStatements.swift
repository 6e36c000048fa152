import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import Synchronization

/// The request statements: queries (`from t select|insert|update|delete ...`) and `rpc`, with
/// their files (`insert file|csv`, `> 'out.csv'`) and paged reads (`select ... all`). A value for
/// one statement: it compiles the statement against the environment's DB manager (the service key
/// `as service`), sends it (Ctrl-C cancels it), prints the answer in the current format and
/// returns it.
///
/// ```swift
/// let result = await RequestStatements(environment: environment, output: output)
///   .run(statement, in: source, directory: nil)
/// ```
struct RequestStatements: RequestFamily {
  let environment: StatementEnvironment
  let output: StatementOutput

  /// Compiles `statement`; prints the diagnostic and throws the failure when it cannot be sent
  /// (the statement fails with exit code 2).
  func compile(_ statement: Statement, in source: Source, directory: String? = nil)
    async
    throws(StatementFailure) -> StatementCompiler.Compiled
  {
    do {
      var compiler = StatementCompiler(
        manager: environment.dbManager, scope: environment.variables,
        readBody: Self.bodyReader(directory: directory))
      compiler.timezone = settings.timezone
      return try compiler.compile(statement)
    } catch {
      throw failure(error, in: source)
    }
  }

  /// Runs a query or an `rpc`: compile, send (Ctrl-C cancels), print the result or the error.
  /// A signal returns `.interrupted`: whoever runs the statement says what that means.
  func run(_ statement: Statement, in source: Source, directory: String? = nil) async
    -> StatementResult
  {
    if let paged = await PagedRead.run(statement, in: source, directory: directory, by: self) {
      return paged
    }
    let compiled: StatementCompiler.Compiled
    do { compiled = try await compile(statement, in: source, directory: directory) } catch {
      return .failed(error)
    }
    let started = ContinuousClock.now
    let spinner = Spinner.start(
      label: "waiting for \(environment.project.name)", enabled: environment.interactive)
    let outcome = await ArrivingElements.$current.withValue(
      arrivingRows(for: statement, compiled.request)
    ) { await environment.sender.send(compiled) }
    spinner.stop()
    let network = ContinuousClock.now - started
    switch outcome {
    case .interrupted(let signal):
      return .interrupted(signal)
    case .failed(let error):
      return .failed(requestFailure(error))
    case .done(let response):
      if let failure = Self.refusedRollback(compiled.request, response) {
        return .failed(self.failure(.server, failure, outcome: .failed(message: failure)))
      }
      let rendering = ContinuousClock.now
      let shown: Presented
      if let file = Self.outputFile(of: statement) {
        // A file that cannot be written fails the statement (exit 1), not the project.
        if var failure = await write(
          response, of: compiled.request, to: file, directory: directory)
        {
          (failure.kind, failure.outcome) = (.server, .answered(response))
          return .failed(failure)
        }
        shown = Presented()
      } else {
        shown = await show(response, of: compiled.request)
      }
      if settings.timing {
        // The time the pager had the rows is the reader's, not snm's.
        let rendered = ContinuousClock.now - rendering - shown.paged
        output.errors.write(
          "Time: network \(Self.milliseconds(network)), rendering "
            + "\(Self.milliseconds(rendered))\n")
        output.errors.flush()
      }
      var outcome = await RowCapCheck(requests: self, statement: statement).outcome(of: response)
      outcome.milliseconds = Self.milliseconds(of: network)
      // HEAD: the count is in Content-Range, and no row came.
      if compiled.request.endpoint.method == .head { outcome.rowCount = 0 }
      if var failure = shown.failure {
        failure.outcome = outcome
        return .failed(failure)
      }
      return .succeeded(outcome)
    }
  }

  /// What takes the rows of the answer to `statement` while they arrive: csv rendered as it will
  /// be printed (to the output, or to the statement's `> 'file.csv'`), ahead of the last byte;
  /// and, when the rows go as csv, json or ndjson to a pipe or a file, a spill: past a few
  /// megabytes the body goes on in a temporary file, and the rows are printed from it once the
  /// answer is whole and valid (``BodySpill``). Nil when the answer will be neither.
  func arrivingRows(for statement: Statement, _ request: SupabaseDBRequest) -> ArrivingElements? {
    guard !request.acceptsCSV, !request.acceptsPlan, request.endpoint.method != .head else {
      return nil
    }
    if let file = Self.outputFile(of: statement) {
      let format: OutputFormat? =
        switch OutputFileFormat(path: file.path) {
        case .csv?: .csv
        case .json?: .json
        case .ndjson?: .ndjson
        case .table?, nil: nil
        }
      return format.flatMap {
        ResultRenderer(format: $0, style: RenderStyle(csvCRLF: settings.csvCRLF))
          .arrivingRows(spillingPast: BodySpill())
      }
    }
    guard !settings.quiet else { return nil }
    // At a terminal the text is gathered for the pager: the body stays in memory.
    let terminal = output.results.isTerminal
    return ResultRenderer(
      format: settings.format,
      style: RenderStyle(terminal: terminal, csvCRLF: settings.csvCRLF)
    ).arrivingRows(spillingPast: terminal ? nil : BodySpill())
  }

  /// Prints a successful answer: rows in the current format, or a line for a write without rows.
  /// Not `rendered` when the rows could not be printed (reported).
  func show(_ response: SupabaseDBResponse, of request: SupabaseDBRequest) async -> Presented {
    let table = Self.tableName(of: request)
    let document = response.document
    let catalog = environment.catalog
    if let table, let columns = document.firstRowKeys {
      catalog.noteResult(table: table, columns: columns)
    }
    if request.acceptsCSV, case .string(let text) = response.value {
      emitRaw(text)
      return Presented()
    }
    if request.acceptsPlan, case .string(let text) = response.value {
      // The server's text: at a terminal its control and invisible format characters are shown
      // as escapes (an escape sequence in a table's name, a hostile server); to a pipe it stays.
      let shown =
        output.results.isTerminal ? VisibleText.escaped(text, keepingNewlines: true) : text
      emitRaw(shown.hasSuffix("\n") ? shown : shown + "\n")
      return Presented()
    }
    if response.response.body.isEmpty && document.shape.kind == .null {
      guard settings.format == .table || settings.format == .expanded else {
        return Presented()
      }
      emit(Self.summary(of: request, response: response))
      warnIfNothingChanged(request, response)
      return Presented()
    }
    var defaultColumn = "value"
    if case .rpc(let function, _) = request.action { defaultColumn = function }
    // An empty result keeps the header its query names (`*` read from the schema when known).
    let empty =
      document.shape.kind == .array && document.shape.count == 0
      || request.expectation == .maybeSingle && document.shape.kind == .null
    if empty && catalog.isAwaitingDocument {
      // `*`'s columns come from the document the prompt started loading: waited for, so the
      // header does not depend on which answer came first (Ctrl-C stops the wait).
      _ = await environment.sender.cancellable(refreshing: false) {
        await catalog.waitUntilLoaded()
      }
    }
    let columns =
      empty ? request.resultColumns(starColumns: table.flatMap(catalog.knownColumns)) : nil
    return await present(
      document, defaultColumn: defaultColumn, columns: columns, total: response.count,
      arrived: response.response.arrived)
  }

  /// `UPDATE 3` and `DELETE 0` as psql says them, when the server counted the rows (snm asks for
  /// the count of every update and delete); else `inserted (HTTP 201)`, `rpc sleep_for done
  /// (HTTP 204)`.
  static func summary(of request: SupabaseDBRequest, response: SupabaseDBResponse) -> String {
    if let count = response.count {
      switch request.action {
      case .update: return "UPDATE \(count)"
      case .delete: return "DELETE \(count)"
      default: break
      }
    }
    if request.endpoint.method == .head {
      let rows = response.count.map { $0 == 1 ? "1 row" : "\($0) rows" } ?? "rows not counted"
      return "HEAD: \(rows) (HTTP \(response.status))"
    }
    let verb: String
    switch request.action {
    case .insert: verb = "inserted"
    case .upsert: verb = "upserted"
    case .update: verb = "updated"
    case .delete: verb = "deleted"
    case .put: verb = "put"
    case .fetch: verb = "fetched"
    case .rpc(let function, _): verb = "rpc \(function) done"
    }
    let rows = response.count.map { $0 == 1 ? " 1 row" : " \($0) rows" } ?? ""
    return "\(verb)\(rows) (HTTP \(response.status))"
  }

  /// At the prompt, a warning on standard error when an update or delete changed no row: the
  /// filter matched none, or row-level security let none through (which PostgREST does not
  /// report as an error).
  func warnIfNothingChanged(_ request: SupabaseDBRequest, _ response: SupabaseDBResponse) {
    guard environment.interactive, response.count == 0 else { return }
    let verb: String
    switch request.action {
    case .update: verb = "updated"
    case .delete: verb = "deleted"
    default: return
    }
    // A warning, not an error: `warning:` where errors say `snm:`.
    let who = environment.signedIn ?? environment.project.keyRole
    output.errors.write(
      VisibleText.escaped(
        "warning: no row was \(verb): none matched the filter, or row-level security hides them "
          + "from \(who)") + "\n")
    output.errors.flush()
  }

  /// The table a request reads or writes (nil for `rpc`), for completion.
  static func tableName(of request: SupabaseDBRequest) -> String? {
    if case .rpc = request.action { return nil }
    let path = request.endpoint.path
    guard path.hasPrefix("/rest/v1/") else { return nil }
    let name = path.dropFirst("/rest/v1/".count)
    // Foundation's decoding only for a name that has something to decode.
    guard name.utf8.contains(UInt8(ascii: "%")) else { return String(name) }
    return String(name).removingPercentEncoding
  }

  static func milliseconds(_ duration: Duration) -> String {
    let parts = duration.components
    let value = Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    return String(format: "%.1f ms", value)
  }
}
