import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// `from t select ... all`: every row, read a page at a time past the server's row cap.
///
/// Each page is the statement with `limit` (the cap, ``RowCap``) and `offset` (the rows read so
/// far, after the statement's own offset), ordered by the statement's `order by` and then the
/// table's primary key, so that no row is on two pages and none falls between them while the rows
/// stay as they are. Without a primary key (a view, a schema snm cannot read) the statement's own
/// order is used, and without one the read is refused: an offset into an unordered read may repeat
/// or skip rows. The read ends at the first page that comes back empty: a page shorter than asked
/// may still be a cap lower than snm knows.
///
/// ```swift
/// return await PagedRead(requests: self, statement: statement, query: query, source: source,
///                        directory: directory).run()
/// ```
/// Pages are written as they come (``PagedOutput``); a page that fails fails the statement,
/// saying how many rows were written before it. `> 'file'` is written beside the file and renamed
/// into place at the end, so a failure leaves no file.
struct PagedRead {
  let requests: RequestStatements
  let statement: Statement
  let query: QueryStatement
  let source: Source
  let directory: String?
  /// `let name = <select> all`: the rows are bound, not printed.
  var silent = false

  /// Runs `statement` when it is a select with `all`; refuses a read the cap may cut when
  /// `SNM_MAX_ROWS` is not a cap; nil for the rest (sent as they are).
  /// `silent`: for `let`, which binds the rows and prints nothing.
  static func run(
    _ statement: Statement, in source: Source, directory: String?, silent: Bool = false,
    by requests: RequestStatements
  ) async -> StatementResult? {
    if case .query = statement.kind, let query = RequestExplainer.pagedQuery(statement) {
      return await PagedRead(
        requests: requests, statement: statement, query: query, source: source,
        directory: directory, silent: silent
      ).run()
    }
    if RowCapCheck.uncappedModifiers(of: statement) != nil,
      case .failure(let invalid) = RowCap.read(requests.environment.variables.environment)
    {
      return requests.fail(.usage, invalid.message)
    }
    return nil
  }

  /// Compiles one page (or the look past the cap) of `statement`.
  ///
  /// - Throws: `Diagnostic` when a variable cannot be filled in or the builder refuses the chain.
  static func compile(
    _ statement: Statement, _ window: PageWindow, by requests: RequestStatements
  ) async throws(Diagnostic) -> StatementCompiler.Compiled {
    var compiler = StatementCompiler(
      manager: requests.environment.dbManager, scope: requests.environment.variables)
    compiler.timezone = requests.settings.timezone
    compiler.window = window
    return try compiler.compile(statement)
  }

  /// The primary key's columns added to the order, loading the schema when nothing has (nil and
  /// a result when the statement cannot go on: the project is unreachable, or nothing orders it).
  func tiebreak() async -> (columns: [String], stop: StatementResult?) {
    var columns: [String] = []
    if query.table.schema == nil || query.table.schema?.text == "public" {
      if requests.environment.catalog.schema == nil, let stopped = await requests.loadSchema() {
        return ([], stopped)
      }
      columns =
        requests.environment.catalog.schema?.table(named: query.table.name.text)?.primaryKey ?? []
    }
    if columns.isEmpty && query.modifiers.order.isEmpty {
      let failure = requests.failure(
        .usage,
        "'all' reads '\(query.table.name.text)' a page at a time and needs an order that names "
          + "each row once: the schema names no primary key for it; add 'order by <unique columns>'"
      )
      return ([], .failed(failure))
    }
    return (columns, nil)
  }

  func run() async -> StatementResult {
    let cap: RowCap
    switch RowCap.read(requests.environment.variables.environment) {
    case .success(let read): cap = read
    case .failure(let invalid):
      return requests.fail(.usage, invalid.message)
    }
    let order = await tiebreak()
    if let stop = order.stop { return stop }
    let settings = requests.settings
    var file: PageFile?
    let mode: PagedOutput.Mode
    let writer: OutputWriter?
    if silent {
      (mode, writer) = (.atTheEnd, nil)
    } else if let target = RequestStatements.outputFile(of: statement) {
      let opened: PageFile
      do { opened = try await PageFile.opening(target, directory: directory, by: requests) } catch {
        return .failed(error)
      }
      file = opened
      mode = Self.mode(of: opened.format)
      writer = opened.writer
    } else if settings.quiet {
      (mode, writer) = (.atTheEnd, nil)
    } else {
      mode = Self.mode(of: settings.format)
      writer = requests.output.results
    }
    var pages = PagedOutput(
      mode: mode, writer: writer, visible: file == nil && (writer?.isTerminal ?? false),
      crlf: settings.csvCRLF)
    let started = ContinuousClock.now
    var network = Duration.zero
    var status: Int?
    var request: SupabaseDBRequest?
    var number = 0
    while true {
      number += 1
      let window = PageWindow(rows: cap.pageRows, offset: pages.rows, tiebreak: order.columns)
      let compiled: StatementCompiler.Compiled
      do {
        compiled = try await Self.compile(statement, window, by: requests)
      } catch {
        file?.discard()
        return requests.report(error, in: source)
      }
      request = compiled.request
      let sent = ContinuousClock.now
      let answer = await requests.environment.sender.send(compiled)
      network += ContinuousClock.now - sent
      switch answer {
      case .interrupted(let signal):
        file?.discard()
        return .interrupted(signal)
      case .failed(let error):
        pages.finish()
        file?.discard()
        let failure = requests.requestFailure(error)
        if number > 1 { requests.report(stopped(at: number, pages, file: file)) }
        return .failed(failure)
      case .done(let response):
        status = response.status
        guard response.document.shape.kind == .array else {
          file?.discard()
          return .failed(
            requests.failure(
              .server, "page \(number) of 'all' is not an array of rows",
              outcome: .answered(response)))
        }
        if response.document.shape.count == 0 { break }
        if pages.rows == 0, mode == .csv, let writer, writer === requests.output.results {
          startCSVBlock(writer)
        }
        do {
          try pages.take(response.document)
        } catch {
          pages.finish()
          file?.discard()
          return .failed(
            requests.failure(
              .server, "page \(number) of 'all': the body is not JSON: \(error)",
              outcome: .answered(response)))
        }
        continue
      }
      break
    }
    pages.finish()
    let whole = pages.document()
    var outcome = StatementOutcome.answered(document: whole, status: status)
    outcome.milliseconds = RequestStatements.milliseconds(of: network)
    var paged = Duration.zero
    // The table formats, and a read without rows (its header, `[]`), are written now.
    let atTheEnd = mode == .atTheEnd || pages.rows == 0
    let columns = request.flatMap { request in
      request.resultColumns(
        starColumns: RequestStatements.tableName(of: request).flatMap(
          requests.environment.catalog.knownColumns))
    }
    if let file {
      let format: OutputFormat =
        switch file.format {
        case .csv: .csv
        case .json: .json
        case .ndjson: .ndjson
        case .table: .table
        }
      if var failure = file.finish(
        whole, renderedAtTheEnd: atTheEnd ? format : nil, columns: columns, by: requests)
      {
        (failure.kind, failure.outcome) = (.server, outcome)
        return .failed(failure)
      }
    } else if atTheEnd, writer != nil {
      let shown = await requests.present(whole, columns: columns)
      if var failure = shown.failure {
        failure.outcome = outcome
        return .failed(failure)
      }
      paged = shown.paged
    }
    if settings.timing {
      // As for one answer: the time the pager had the rows is the reader's, not snm's.
      let rendering = ContinuousClock.now - started - network - paged
      requests.output.errors.write(
        "Time: network \(RequestStatements.milliseconds(network)), rendering "
          + "\(RequestStatements.milliseconds(rendering)) (\(number) pages)\n")
      requests.output.errors.flush()
    }
    return .succeeded(outcome)
  }

  /// Each csv result is a block of its own: an empty line parts it from the one written before it
  /// to the same place (as ``StatementExecutor/render(_:defaultColumn:columns:total:framing:arrived:)``
  /// does for one answer).
  func startCSVBlock(_ writer: OutputWriter) {
    if requests.output.followsCSV(writer) {
      writer.write(requests.settings.csvCRLF ? "\r\n" : "\n")
    }
  }

  /// How the rows of `format` are written.
  static func mode(of format: OutputFormat) -> PagedOutput.Mode {
    switch format {
    case .csv: .csv
    case .json: .json
    case .ndjson: .ndjson
    case .table, .expanded: .atTheEnd
    }
  }

  static func mode(of format: OutputFileFormat) -> PagedOutput.Mode {
    switch format {
    case .csv: .csv
    case .json: .json
    case .ndjson: .ndjson
    case .table: .atTheEnd
    }
  }

  /// Why the read stopped at page `number`, and what of it is out.
  func stopped(at number: Int, _ pages: PagedOutput, file: PageFile?) -> String {
    let start = "'all' stopped at page \(number) (offset \(pages.rows))"
    if let file { return "\(start): nothing was written to '\(file.name)'" }
    if pages.written == 0 {
      return "\(start): none of the \(pages.rows) rows before it were printed"
    }
    return "\(start): \(pages.written) rows were written before it; the output is incomplete"
  }
}
