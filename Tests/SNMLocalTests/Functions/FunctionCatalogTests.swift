import Foundation
import Testing

@testable import SNMLocal
@testable import SNMLocalFunctions

/// Discovery from the functions folder and the `[functions.<name>]` entries of config.toml (read
/// by the project folder's reader), `.env`, log lines.
@Suite struct FunctionCatalogTests {
  @Test func namesAreTheCLIsSlugs() {
    for name in ["hello", "a", "Hello_World-2"] { #expect(FunctionCatalog.isValidName(name)) }
    for name in ["", "_shared", "1st", "a.b", "a/b", "é", "a b"] {
      #expect(!FunctionCatalog.isValidName(name))
    }
  }

  @Test func discoveryFollowsTheFolderAndTheConfig() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-functions-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let functions = root + "/supabase/functions"
    for name in ["hello", "off", "mapped", "_shared"] {
      try FileManager.default.createDirectory(
        atPath: functions + "/" + name, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: functions + "/\(name)/index.ts", contents: Data())
    }
    try FileManager.default.createDirectory(
      atPath: functions + "/custom", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: functions + "/custom/main.ts", contents: Data())
    _ = FileManager.default.createFile(atPath: functions + "/import_map.json", contents: Data())
    _ = FileManager.default.createFile(atPath: functions + "/mapped/deno.json", contents: Data())
    let config = root + "/supabase/config.toml"
    _ = FileManager.default.createFile(
      atPath: config,
      contents: Data(
        """
        [functions.off]
        enabled = false
        [functions.custom]
        entrypoint = "./functions/custom/main.ts"
        verify_jwt = false
        """.utf8))
    let folder = ProjectFolder(root: root)
    let catalog = FunctionCatalog(
      folder: functions, configFile: config,
      entries: { try ProjectFolderConfig.functionEntries(folder: folder) })
    let hello = try #require(try catalog.definition(named: "hello"))
    #expect(hello.verifyJWT)
    #expect(hello.entrypoint == functions + "/hello/index.ts")
    // No deno.json in its folder: the folder-wide import map (the CLI's deprecated fallback).
    #expect(hello.importMap == functions + "/import_map.json")
    // A deno.json of its own: Deno finds it from the working directory.
    #expect(try catalog.definition(named: "mapped")?.importMap == nil)
    #expect(try catalog.definition(named: "off") == nil)
    #expect(try catalog.definition(named: "_shared") == nil)
    #expect(try catalog.definition(named: "missing") == nil)
    let custom = try #require(try catalog.definition(named: "custom"))
    #expect(custom.entrypoint == functions + "/custom/main.ts")
    #expect(!custom.verifyJWT)
    #expect(catalog.names() == ["custom", "hello", "mapped"])
  }

  @Test func aFileTheReaderRefusesIsTheCatalogsError() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-functions-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let functions = root + "/supabase/functions"
    try FileManager.default.createDirectory(
      atPath: functions + "/hello", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: functions + "/hello/index.ts", contents: Data())
    _ = FileManager.default.createFile(
      atPath: root + "/supabase/config.toml",
      contents: Data("[functions.hello]\nverify_jwt = 1\n".utf8))
    let folder = ProjectFolder(root: root)
    let catalog = FunctionCatalog(
      folder: functions, configFile: folder.configFile,
      entries: { try ProjectFolderConfig.functionEntries(folder: folder) })
    #expect(throws: LocalProjectError.self) { try catalog.definition(named: "hello") }
    #expect(catalog.names() == ["hello"])  // the folder's function, as before the file broke
  }

  @Test func theEnvFileReadsAsDotenvFilesDo() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-dotenv-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: root + "/.env",
      contents: Data(
        "# comment\nA=1\nexport B = two words # note\nC=\"x\\ny\"\nD='# kept'\nnot a line\n".utf8))
    let values = FunctionCatalog(folder: root, configFile: nil, entries: { [] })
      .environmentFile()
    #expect(values == ["A": "1", "B": "two words", "C": "x\ny", "D": "# kept"])
  }

  @Test func logLinesEscapeControlCharacters() {
    #expect(FunctionLog.escaped("\u{1B}[31mred\u{1B}[0m\r") == "\\u{1B}[31mred\\u{1B}[0m")
    #expect(FunctionLog.escaped("tab\tkept") == "tab\tkept")
    // The terminal's one walk: what reorders or hides a line, a line feed, a lone CR.
    #expect(
      FunctionLog.escaped("a\u{202E}b\u{E0041}\nc\rd\r") == #"a\u{202E}b\u{E0041}\u{A}c\u{D}d"#)
  }
}
