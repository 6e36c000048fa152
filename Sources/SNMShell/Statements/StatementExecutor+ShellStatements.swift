import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

extension StatementExecutor {
  /// Runs `help`, `tables`, `describe`, `set`, `\x`, `exit` (and their psql aliases).
  /// `exit` only succeeds: the runner ends the run after it.
  func runShellStatement(_ command: ShellStatement, in source: Source, directory: String?) async
    -> StatementResult
  {
    switch command {
    case .help(let topic):
      guard let text = LanguageHelp.text(for: topic) else {
        return fail(.usage, "no help on '\(topic ?? "")': try \(LanguageHelp.topicList)")
      }
      tell(text)
      return .succeeded(nil)
    case .tables:
      if let stopped = await loadSchema() { return stopped }
      let cached = reportCachedSchema()
      if cached == nil, let problem = catalog.problem {
        report("\(problem); " + SchemaNotice.standIn(seen: catalog.tableNames().count))
      }
      await render(catalog.tableRows())
      return cached.map { .failed($0) } ?? .succeeded(nil)
    case .describe(let table, let detailed):
      if let stopped = await loadSchema() { return stopped }
      // Served from the cache, the answer prints and the statement fails (exit code 3).
      let cached = reportCachedSchema()
      guard let description = catalog.describe(table.name.text, detailed: detailed) else {
        let why = catalog.problem.map { " (\($0))" } ?? ""
        let known = catalog.tableNames() + catalog.functionNames()
        let next =
          DidYouMean.suggest(table.name.text, among: known).map { "did you mean '\($0)'?" }
          ?? "`tables` lists them"
        let missing = failure(
          cached == nil ? .server : .unreachable,
          "no table, view or function '\(table.name.text)'\(why): \(next)")
        return .failed(cached ?? missing)
      }
      await show(description)
      return cached.map { .failed($0) } ?? .succeeded(nil)
    case .explain(let inner, let format) where StorageCompiler.storageStatement(inner) != nil:
      let compiled: StorageCompiler.Compiled
      do { compiled = try await compileStorage(inner, in: source, directory: directory) } catch {
        return .failed(error)
      }
      emitRaw(RequestExplainer.render(compiled, format: format))
      return .succeeded(nil)
    case .explain(let inner, let format):
      let compiled: StatementCompiler.Compiled
      do { compiled = try await compile(inner, in: source) } catch { return .failed(error) }
      emitRaw(RequestExplainer.render(compiled.request, format: format, of: inner))
      return .succeeded(nil)
    case .setFormat, .setTiming, .setPager, .setOnError, .setExpanded, .toggleExpanded, .setNull,
      .setTimezone, .connectionInfo, .output, .backslashHelp:
      return await run(PsqlCommand(command))
    case .edit, .watch:
      // They run statements again, which the script runner does (ScriptRunner+EditAndWatch).
      return fail(
        .usage, "\(command == .edit ? "\\e" : "\\watch") runs only in a script or at the prompt")
    case .exit:
      return .succeeded(nil)
    }
  }

  /// Says so on standard error when the project cannot be reached and the schema comes from the
  /// cache, and from when; the failure then (the statement prints the rest and fails with exit
  /// code 3).
  func reportCachedSchema() -> StatementFailure? {
    guard case .unreachable(let reason) = catalog.problem, catalog.schema != nil,
      let storedAt = catalog.cachedAt
    else { return nil }
    return failure(.unreachable, SchemaNotice.cached(reason: reason, storedAt: storedAt))
  }

  /// Loads the schema when nothing has and waits for the load (a signal stops the wait, as it
  /// stops a request); reports a project that cannot be reached (the statement fails with exit
  /// code 3). Nil when the statement goes on: a refusal is not a failure, the names seen in
  /// results stand in.
  func loadSchema() async -> StatementResult? {
    if !catalog.hasStartedLoading { startLoadingSchema() }
    let wait = await sendCancellable(refreshing: false) { [catalog] in
      await catalog.waitUntilLoaded()
    }
    if case .interrupted(let signal) = wait { return .interrupted(signal) }
    guard case .unreachable(let reason) = catalog.problem, catalog.schema == nil else {
      return nil
    }
    return fail(.unreachable, reason)
  }

  /// Prints what `describe` found: in the table and expanded formats with its title above and its
  /// notes below (as psql's `\d`), in the others the rows alone.
  func show(_ description: SchemaCatalog.Description) async {
    guard currentSettings.format == .table || currentSettings.format == .expanded else {
      await render(description.rows)
      return
    }
    // Names and comments come from the server: escaped, never raw to the terminal.
    let title = description.title.map { VisibleText.escaped($0) + "\n" } ?? ""
    let notes = description.notes.map { VisibleText.escaped($0, keepingNewlines: true) + "\n" }
    await render(JSONDocument(description.rows), framing: (title, notes.joined()))
  }

  /// Prints rows in the current format; at a terminal, through the pager when they are longer
  /// than the screen.
  @discardableResult
  func render(_ value: JSONValue, defaultColumn: String = "value", total: Int? = nil) async
    -> StatementFailure?
  {
    await render(JSONDocument(value), defaultColumn: defaultColumn, total: total)
  }

  /// Prints a document in the current format, a row at a time when it has not been parsed; at a
  /// terminal, through the pager when the rows are longer than the screen. The failure when the
  /// rows could not be printed (reported: the statement fails with exit code 3).
  /// `framing` is text printed before and after the rows (`describe`'s title and notes);
  /// `arrived`, what the answer's rows were rendered into while they came (``ArrivingRows``).
  @discardableResult
  func render(
    _ document: JSONDocument, defaultColumn: String = "value", columns: [String]? = nil,
    total: Int? = nil, framing: (before: String, after: String) = ("", ""),
    arrived: (any ArrivingElementsConsumer)? = nil
  ) async -> StatementFailure? {
    await present(
      document, defaultColumn: defaultColumn, columns: columns, total: total, framing: framing,
      arrived: arrived
    ).failure
  }

  /// ``render(_:defaultColumn:columns:total:framing:arrived:)``, saying also how long the pager
  /// had the rows (`\timing` leaves the reading out of the rendering time).
  func present(
    _ document: JSONDocument, defaultColumn: String = "value", columns: [String]? = nil,
    total: Int? = nil, framing: (before: String, after: String) = ("", ""),
    arrived: (any ArrivingElementsConsumer)? = nil
  ) async -> Presented {
    let settings = currentSettings
    guard !settings.quiet else { return Presented() }
    let interactive = self.interactive
    // Each CSV result is a block of its own (header, records); an empty line parts two blocks
    // written to the same place.
    let destination = ObjectIdentifier(output)
    let csvBefore = state.withLock { state in
      defer { if settings.format == .csv { state.lastCSVOutput = destination } }
      return settings.format == .csv && state.lastCSVOutput == destination
    }
    if csvBefore { output.write(settings.csvCRLF ? "\r\n" : "\n") }
    guard output.isTerminal else {
      output.write(framing.before)
      let failure = renderReporting(
        document,
        with: ResultRenderer(
          format: settings.format,
          style: RenderStyle(nullText: settings.nullText, csvCRLF: settings.csvCRLF)),
        defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
        to: output)
      output.write(framing.after)
      output.flush()
      return Presented(failure: failure)
    }
    let style = RenderStyle(
      width: Terminal.columns(), colour: settings.colour, terminal: true,
      nullText: settings.nullText, autoExpand: settings.autoExpand, csvCRLF: settings.csvCRLF)
    let buffer = OutputWriter()
    buffer.write(framing.before)
    if let failure = renderReporting(
      document, with: ResultRenderer(format: settings.format, style: style),
      defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
      to: buffer)
    {
      return Presented(failure: failure)
    }
    buffer.write(framing.after)
    let text = buffer.captured
    if interactive && settings.pager && Pager.isNeeded(for: text), let pager = Pager.command() {
      let opened = ContinuousClock.now
      if await Pager.show(text, through: pager, signals: signals) {
        return Presented(paged: ContinuousClock.now - opened)
      }
    }
    output.write(text)
    output.flush()
    return Presented()
  }

  /// Renders; false when the body stopped being JSON half-way (which the check on arrival should
  /// have caught), reported as a malformed answer.
  func renderReporting(
    _ document: JSONDocument, with renderer: ResultRenderer, defaultColumn: String,
    columns: [String]?, total: Int?, arrived: (any ArrivingElementsConsumer)? = nil,
    to writer: OutputWriter
  ) -> StatementFailure? {
    do {
      try renderer.render(
        document, defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
        to: writer)
      return nil
    } catch {
      return failure(.unreachable, "the body is not JSON: \(error)")
    }
  }
}
