import Foundation
import SNMQuery
import Testing

@testable import SNMShell

/// The psql-style commands and the startup file, without a server.
@Suite struct PsqlCommandTests {
  @Test func backslashOSendsResultsToAFileAndBackslashOAloneBringsThemBack() async throws {
    let rig = try StatementRig()
    let path = rig.directory + "-out.txt"
    defer { unlink(path) }
    #expect(await rig.shell.run(text: "\\o \(path)\necho 'to the file'", name: "-c") == .success)
    #expect(await rig.shell.run(text: "\\o\necho 'to the screen'", name: "-c") == .success)
    #expect(rig.output.captured == "to the screen\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "to the file\n")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func backslashOToAFolderThatIsNotThereFailsAndKeepsTheOutput() async throws {
    let rig = try StatementRig()
    let code = await rig.shell.run(text: "\\o /nonexistent/x.txt\necho 'here'", name: "-c")
    #expect(code == .usage)
    #expect(rig.errors.captured.contains("cannot write results to '/nonexistent/x.txt'"))
    #expect(rig.output.captured == "")
  }

  @Test func aPsqlHabitReturnsWhatItChangedAndKeepsNothingItself() async throws {
    let rig = try StatementRig()
    let out = OutputWriter()
    let output = StatementOutput(results: out, terminal: out, errors: out, quiet: false)
    let environment = await rig.shell.statementEnvironment()
    let toggled = await PsqlCommand(.setTiming(nil)).run(in: environment, output: output)
    #expect(toggled.result.succeeded)
    #expect(toggled.settings?.timing == true)
    #expect(rig.shell.currentSettings.timing == false)
    #expect(out.captured == "")
    let file = OutputFile(path: "/nonexistent/x.txt", range: .point(0))
    let refused = await PsqlCommand(.output(file)).run(in: environment, output: output)
    #expect(refused.result.failure?.exitCode == .usage)
    #expect(
      refused.result.failure?.message?.hasPrefix("cannot write results to '/nonexistent/") == true)
    #expect(refused.results == nil && refused.settings == nil)
    #expect(out.captured.hasPrefix("snm: cannot write results to '/nonexistent/x.txt'"))
  }

  @Test func setNullAndItsPsqlSpellingChangeOneSetting() async throws {
    let rig = try StatementRig()
    _ = await rig.shell.run(text: "\\pset null '(null)'", name: "-c")
    #expect(rig.shell.currentSettings.nullText == "(null)")
    _ = await rig.shell.run(text: "set null ''", name: "-c")
    #expect(rig.shell.currentSettings.nullText == "")
  }

  @Test func watchWithoutAStatementBeforeItFails() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "\\watch 1", name: "-c") == .usage)
    #expect(rig.errors.captured.contains("there is none yet"))
  }

  @Test func watchRunsTheLastStatementCountTimes() async throws {
    let rig = try StatementRig()
    let code = await rig.shell.run(text: "echo 'tick'\n\\watch 0.01 count=3", name: "-c")
    #expect(code == .success)
    #expect(rig.output.captured.components(separatedBy: "tick\n").count - 1 == 4)
    #expect(rig.output.captured.components(separatedBy: "echo 'tick'  (every 0.01 s)").count == 4)
  }

  @Test func conninfoNamesTheKeyKindButNeverTheKey() async throws {
    let rig = try StatementRig()
    #expect(await rig.shell.run(text: "\\conninfo", name: "-c") == .success)
    #expect(
      rig.output.captured
        == "You are connected to project \"local\" at http://127.0.0.1:54397 with a key "
        + "(role anon), not signed in.\n")
    #expect(!rig.output.captured.contains("anon-key"))
    let url = try #require(URL(string: "https://u:p@abcd.supabase.co"))
    #expect(PsqlCommand.shownURL(url) == "https://abcd.supabase.co")
  }

  @Test func theStartupFileHoldsSettingsAndReportsTheRest() async throws {
    let rig = try StatementRig()
    let path = rig.directory + "-snmrc"
    defer { unlink(path) }
    try "# mine\nset format json\nfrom user_info select *\nset timming on\n\\pset null '-'\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    #expect(await rig.shell.applyStartupFile(at: path) == false)
    #expect(rig.shell.currentSettings.format == .json)
    #expect(rig.shell.currentSettings.nullText == "-")
    let errors = rig.errors.captured
    #expect(errors.contains("\(path):3:1: error: the startup file holds settings only"))
    #expect(errors.contains("\(path):4:5: error: expected format"))
    #expect(errors.contains("the startup file's other settings apply"))
    #expect(rig.output.captured == "")
    #expect(await rig.shell.applyStartupFile(at: path + "-missing"))
  }
}
