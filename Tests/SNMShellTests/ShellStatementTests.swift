import Foundation
import SNMNetwork
import SNMSupabase
import SNMTestSupport
import Synchronization
import Testing

@testable import SNMShell

/// A shell on an unused port with the demo schema already known, writing to memory.
struct StatementRig {
  let directory = NSTemporaryDirectory() + "snm-shell-statements-" + UUID().uuidString
  let output = OutputWriter()
  let errors = OutputWriter()
  let shell: StatementExecutor

  init(format: OutputFormat? = nil) throws {
    let project = try ProjectSelection(url: "http://127.0.0.1:54397", key: "anon-key")
    var options = ShellOptions()
    options.format = format
    options.variables = [.init(name: "who", value: "kim")]
    let sessions = SessionManager(
      project: project.url.absoluteString, store: FileSessionStore(directory: directory),
      auth: StubAuth())
    shell = StatementExecutor(
      project: project, options: options, output: output, errors: errors, sessions: sessions,
      auth: StubAuth(), catalog: SchemaCatalog(schema: try demoSchema()))
    // Nothing listens on the port: the refresh (on the first statement that reads the schema)
    // fails and the known schema stays.
    shell.prepareSchemaLoading(cache: nil)
  }
}

@Suite struct ShellStatementTests {
  @Test func describeAndTablesPrintInTheCurrentFormat() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "describe dog_profile", name: "-c") == .success)
    #expect(rig.output.captured.hasPrefix("Table \"dog_profile\"\n column |  type   | nullable |"))
    #expect(
      rig.output.captured.contains(
        " owner  | uuid    | false    |                   | -> user_info.id"))
    let json = try StatementRig()
    #expect(await json.shell.run(text: "set format ndjson; tables", name: "-c") == .success)
    let lines = json.output.captured.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[0] == #"{"name":"user_info","type":"table","columns":6}"#)
    // Read-only in the document (no post, patch or delete): a view.
    #expect(lines[2] == #"{"name":"mate","type":"view","columns":2}"#)
  }

  @Test func describeOfAnUnknownTableFailsWithAPointer() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "\\d dogs", name: "-c") == .failure)
    #expect(rig.errors.captured.contains("snm: no table, view or function 'dogs'"))
    #expect(rig.errors.captured.contains("`tables` lists them"))
  }

  @Test func setTimingFormatAndExpandedChangeTheSettings() async throws {
    let rig = try StatementRig()
    _ = await rig.shell.run(text: "set timing on; set on_error continue; \\x", name: "-c")
    var settings = rig.shell.currentSettings
    #expect(settings.timing && settings.onError == .continue && settings.format == .expanded)
    _ = await rig.shell.run(text: "\\timing; \\x; set format csv", name: "-c")
    settings = rig.shell.currentSettings
    #expect(!settings.timing && settings.format == .csv)
    // Setting changes say nothing in scripts.
    #expect(rig.output.captured == "")
  }

  @Test func setExpandedChoosesRecordsTablesOrWhicheverFits() async throws {
    let rig = try StatementRig()
    #expect(rig.shell.currentSettings.expanded == "auto")
    _ = await rig.shell.run(text: "set expanded on", name: "-c")
    #expect(rig.shell.currentSettings.format == .expanded)
    _ = await rig.shell.run(text: "set expanded off", name: "-c")
    #expect(rig.shell.currentSettings.expanded == "off")
    #expect(rig.shell.currentSettings.format == .table && !rig.shell.currentSettings.autoExpand)
    _ = await rig.shell.run(text: "set expanded auto", name: "-c")
    #expect(rig.shell.currentSettings.expanded == "auto")
    _ = await rig.shell.run(text: "\\x", name: "-c")
    #expect(rig.shell.currentSettings.expanded == "on")
    _ = await rig.shell.run(text: "\\x", name: "-c")
    #expect(rig.shell.currentSettings.expanded == "off")
  }

  @Test func parseErrorsRunNothingAndExitTwo() async throws {
    let rig = try StatementRig()
    let code = await rig.shell.run(text: "set format json\nfrom user_info selec *", name: "a.snm")
    #expect(code == .usage)
    #expect(rig.shell.currentSettings.format == .table)
    #expect(rig.errors.captured.hasPrefix("a.snm:2:16: error: expected an action"))
  }

  @Test func exitStopsTheStatementsAfterIt() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "echo 'one'; exit; echo 'two'", name: "-c") == .success)
    #expect(rig.output.captured == "one\n")
  }

  @Test func helpHasTopicsAndRefusesUnknownOnes() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "help", name: "-c") == .success)
    #expect(rig.output.captured.hasPrefix("snm statements"))
    expectSnapshot(rig.output.captured, named: "help-statement.txt")
    let topic = try StatementRig()
    #expect(await topic.shell.run(text: "help rpc", name: "-c") == .success)
    #expect(topic.output.captured.hasPrefix("rpc <function>"))
    let unknown = try StatementRig()
    #expect(await unknown.shell.run(text: "help nonsense", name: "-c") == .usage)
    #expect(unknown.errors.captured.contains("no help on 'nonsense'"))
  }

  @Test func helpSessionListsEverySessionStatement() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "help session", name: "-c") == .success)
    for statement in ["session check", "session show", "session refresh", "session token"] {
      #expect(rig.output.captured.contains("\n\(statement) "), "help session lacks \(statement)")
    }
  }

  @Test func pipedInputStopsAtTheFirstFailureUnlessToldToContinue() async throws {
    let lines = ["echo 'first'", "describe nothing_here", "echo 'never'"]
    let rig = try StatementRig()
    let reader = PlainLineReader(next: Self.feed(lines))
    #expect(await rig.shell.runPrompt(reader: reader) == .failure)
    #expect(rig.output.captured == "first\n")
    let continuing = try StatementRig()
    let more = PlainLineReader(next: Self.feed(["set on_error continue"] + lines))
    #expect(await continuing.shell.runPrompt(reader: more) == .failure)
    #expect(continuing.output.captured == "first\nnever\n")
  }

  @Test func pipedInputJoinsLinesOfAnOpenBracket() async throws {
    let rig = try StatementRig()
    let reader = PlainLineReader(next: Self.feed(["echo 'a'; help (", "rpc)", "echo 'b'"]))
    _ = await rig.shell.runPrompt(reader: reader)
    // `help (` + `rpc)` is one statement (an unknown topic), not two broken ones.
    #expect(rig.output.captured == "a\n")
    #expect(
      rig.errors.captured.hasPrefix(
        "stdin:1:11: error: statement could not run: help ( rpc)\nsnm: no help on '( rpc)'"))
  }

  @Test func echoFillsInCommandLineVariablesAndTheEnvironment() async throws {
    let rig = try StatementRig()
    _ = await rig.shell.run(text: "echo $who; echo $env.HOME", name: "-c")
    #expect(rig.output.captured == "kim\n\(ProcessInfo.processInfo.environment["HOME"] ?? "")\n")
  }

  static func feed(_ lines: [String]) -> @Sendable () -> String? {
    let remaining = LockedLines(lines)
    return { remaining.next() }
  }
}

final class LockedLines: Sendable {
  private let lines: Synchronization.Mutex<[String]>
  init(_ lines: [String]) { self.lines = .init(lines) }
  func next() -> String? {
    lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}
