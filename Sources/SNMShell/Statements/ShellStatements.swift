import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

/// The shell's own statements that read the schema or the language: `help`, `tables`, `describe`
/// (`\d`, `\dt`), `explain`. A value for one statement, as every family
/// (Statements/StatementFamily.swift); the psql habits are ``PsqlCommand``'s.
///
/// ```swift
/// let result = await ShellStatements(environment: environment, output: output)
///   .run(.tables, in: source, directory: nil)
/// ```
struct ShellStatements: StatementFamily {
  let environment: StatementEnvironment
  let output: StatementOutput

  /// Runs `help`, `tables`, `describe` or `explain`; any other shell statement does nothing.
  func run(_ command: ShellStatement, in source: Source, directory: String?) async
    -> StatementResult
  {
    let catalog = environment.catalog
    switch command {
    case .help(let topic):
      guard let text = LanguageHelp.text(for: topic) else {
        return fail(.usage, "no help on '\(topic ?? "")': try \(LanguageHelp.topicList)")
      }
      output.tell(text)
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
    case .explain(let inner, let format) where FunctionsCompiler.functionsStatement(inner) != nil:
      let request: FunctionsRequest
      do {
        request = try FunctionsStatements(environment: environment, output: output)
          .compile(inner, in: source, directory: directory)
      } catch {
        return .failed(error)
      }
      switch format {
      case .text: emitRaw(RequestExplainer.visible(request.readableBlock(), format: .text))
      case .json:
        emitRaw(RequestExplainer.visible(request.explainJSON().serialized() + "\n", format: .json))
      case .curl: emitRaw(request.curlCommand() + "\n")
      }
      return .succeeded(nil)
    case .explain(let inner, let format) where StorageCompiler.storageStatement(inner) != nil:
      let compiled: StorageCompiler.Compiled
      do {
        compiled = try await StorageStatements(environment: environment, output: output)
          .compile(inner, in: source, directory: directory)
      } catch {
        return .failed(error)
      }
      emitRaw(
        RequestExplainer.visible(RequestExplainer.render(compiled, format: format), format: format))
      return .succeeded(nil)
    case .explain(let inner, let format):
      let compiled: StatementCompiler.Compiled
      do {
        compiled = try await RequestStatements(environment: environment, output: output)
          .compile(inner, in: source)
      } catch { return .failed(error) }
      emitRaw(
        RequestExplainer.visible(
          RequestExplainer.render(compiled.request, format: format, of: inner), format: format))
      return .succeeded(nil)
    default:
      return .succeeded(nil)
    }
  }
  /// Says so on standard error when the project cannot be reached and the schema comes from the
  /// cache, and from when; the failure then (the statement prints the rest and fails with exit
  /// code 3).
  func reportCachedSchema() -> StatementFailure? {
    let catalog = environment.catalog
    guard case .unreachable(let cause) = catalog.problem, catalog.schema != nil,
      let storedAt = catalog.cachedAt
    else { return nil }
    var text = SchemaNotice.cached(reason: cause.description, storedAt: storedAt)
    if let advice = UnfoundProjectHost.advice(for: cause, project: environment.project) {
      text += "\nsnm: " + advice
    }
    return failure(.unreachable, text)
  }

  /// Prints what `describe` found: in the table and expanded formats with its title above and its
  /// notes below (as psql's `\d`), in the others the rows alone.
  func show(_ description: SchemaCatalog.Description) async {
    guard settings.format == .table || settings.format == .expanded else {
      await render(description.rows)
      return
    }
    // Names and comments come from the server: escaped, never raw to the terminal.
    let title = description.title.map { VisibleText.escaped($0) + "\n" } ?? ""
    let notes = description.notes.map { VisibleText.escaped($0, keepingNewlines: true) + "\n" }
    await render(JSONDocument(description.rows), framing: (title, notes.joined()))
  }
}
