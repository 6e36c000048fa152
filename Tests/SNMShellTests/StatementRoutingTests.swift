import Foundation
import SNMQuery
import SNMSupabase
import Testing

@testable import SNMShell

/// Where a statement prints and how it sends are parameters the runner hands down with it
/// (``StatementRouting``), not task-locals: a statement's output goes where its routing says.
@Suite struct StatementRoutingTests {
  /// The statements of `text`, parsed, with their source.
  func statements(_ text: String) -> (Source, [Statement]) {
    let source = Source(text: text, fileName: "-c")
    var parser = Parser(source)
    var statements: [Statement] = []
    while let statement = parser.nextStatement() { statements.append(statement) }
    return (source, statements)
  }

  @Test func aStatementPrintsWhereItsRoutingSays() async throws {
    let rig = try StatementRig()
    var runner = ScriptRunner(executor: rig.shell)
    let (source, parsed) = statements("echo 'held'\necho $nope")
    let (results, errors) = (OutputWriter(), OutputWriter())
    let routing = StatementRouting(results: results, errors: errors)
    #expect(await runner.dispatch(parsed[0], in: source, routing: routing).succeeded)
    let failed = await runner.dispatch(parsed[1], in: source, routing: routing)
    #expect(failed.failure?.exitCode == .usage)
    #expect(results.captured == "held\n")
    #expect(errors.captured.contains("nope"))
    #expect(rig.output.captured == "")
    #expect(rig.errors.captured == "")
    // Without a routing, the session's writers.
    #expect(await runner.dispatch(parsed[0], in: source).succeeded)
    #expect(rig.output.captured == "held\n")
  }

  @Test func asServiceWithoutAServiceKeyIsRefusedWhereTheStatementPrints() async throws {
    let rig = try StatementRig()
    var runner = ScriptRunner(executor: rig.shell)
    let (source, parsed) = statements("as service from dog_profile select *")
    let errors = OutputWriter()
    let result = await runner.dispatch(
      parsed[0], in: source, routing: StatementRouting(errors: errors))
    #expect(result.failure?.exitCode == .usage)
    #expect(errors.captured.contains("this statement needs the project's service key"))
    #expect(rig.errors.captured == "")
    #expect(!rig.shell.takeRanAsService())
  }

  @Test func asServiceInTheRoutingGivesTheFamilyTheServiceKeysManagers() async throws {
    let project = try ProjectSelection(
      url: "http://127.0.0.1:54397", key: "anon-key", serviceKey: "service-key")
    let shell = StatementExecutor(
      project: project, options: ShellOptions(), output: OutputWriter(), errors: OutputWriter(),
      sessions: SessionManager(
        project: project.url.absoluteString,
        store: FileSessionStore(
          directory: NSTemporaryDirectory() + "snm-routing-" + UUID().uuidString),
        auth: StubAuth()),
      auth: StubAuth())
    let plain = await shell.statementEnvironment()
    let service = await shell.statementEnvironment(StatementRouting(asService: true))
    #expect(!plain.connection.asService)
    #expect(plain.dbManager.config.anonKey == "anon-key")
    #expect(service.dbManager.config.anonKey == "service-key")
    #expect(service.storageManager.config.anonKey == "service-key")
  }

  @Test func aFamilyPrintsOnlyToTheOutputItIsHandedAndReturnsWhatChanged() async throws {
    let rig = try StatementRig()
    let out = OutputWriter()
    let output = StatementOutput(results: out, terminal: out, errors: out, quiet: false)
    let family = SessionStatements(
      environment: await rig.shell.statementEnvironment(), output: output)
    let shown = await family.run(.show)
    #expect(shown.result.succeeded)
    #expect(shown.signedIn == nil)
    #expect(out.captured.hasPrefix("not signed in"))
    let signedIn = await family.run(.loginAnonymously)
    #expect(signedIn.result.succeeded)
    #expect(signedIn.signedIn != nil)
    #expect(rig.output.captured == "")
    #expect(rig.errors.captured == "")
  }
}
