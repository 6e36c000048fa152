import Foundation
import SNMLocalFunctions
import Testing

@testable import SNMLocal

/// supabase/config.toml read into the settings the local project has, the rest listed.
@Suite struct ProjectFolderConfigTests {
  /// A project folder holding `supabase/config.toml` with `text`.
  func folder(_ text: String) throws -> ProjectFolder {
    let root = FileManager.default.temporaryDirectory.path + "/snm-config-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: root + "/supabase", withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/supabase/config.toml"))
    return ProjectFolder(root: root)
  }

  @Test func readsTheKeysTheProjectHasAndListsTheRest() throws {
    let folder = try folder(
      """
      project_id = "p"
      [api]
      enabled = true
      port = 54330
      schemas = ["public", "api"]
      max_rows = 50
      [api.tls]
      enabled = false
      [db]
      port = 54322
      [db.pooler]
      enabled = false
      pool_mode = "transaction"
      [auth]
      site_url = "http://127.0.0.1:3000"
      signing_keys_path = "./keys.json"
      enable_anonymous_sign_ins = false
      [auth.email]
      enable_confirmations = true
      otp_expiry = 600
      [auth.sms.test_otp]
      4152127777 = "123456"
      [auth.rate_limit]
      token_refresh = 0
      email_sent = 2
      [auth.external.apple]
      enabled = false
      [storage]
      file_size_limit = "5MB"
      [storage.buckets.images]
      public = true
      file_size_limit = 1024
      allowed_mime_types = ["image/png"]
      objects_path = "./images"
      [functions.hello]
      verify_jwt = false
      import_map = "./functions/hello/deno.json"
      [studio]
      port = 54323
      [realtime]
      max_concurrent_users = 2000
      max_events_per_second = 500
      """)
    let config = try ProjectFolderConfig(folder: folder)
    #expect(config.realtimeLimits == ["max_concurrent_users": 2000, "max_events_per_second": 500])
    #expect(config.projectID == "p")
    #expect(config.port == 54330)
    #expect(config.schemas == ["public", "api"])
    #expect(config.maxRows == 50)
    #expect(config.siteURL == "http://127.0.0.1:3000")
    #expect(config.signingKeysPath == folder.root + "/supabase/keys.json")
    #expect(config.authSwitches == ["anonymous": false, "confirm_email": true, "apple": false])
    #expect(config.smsTestOTPs == ["4152127777": "123456"])
    #expect(config.rateLimits == ["token_refresh": 0])
    #expect(config.fileSizeLimit == 5_000_000)
    #expect(
      config.buckets == [
        .init(name: "images", isPublic: true, fileSizeLimit: 1024, allowedMimeTypes: ["image/png"])
      ])
    #expect(
      config.functions == [
        .init(name: "hello", verifyJWT: false, importMap: "./functions/hello/deno.json")
      ])
    // Tables that turn off what the project lacks ([db.pooler], [auth.external]) ask for
    // nothing; a value other than the project's is listed with what it does instead.
    #expect(
      config.unsupported.map { "\($0.position.line) \($0.key) \($0.here ?? "-")" } == [
        "9 [db] -", "20 [auth.email] otp_expiry 3600", "25 [auth.rate_limit] email_sent -",
        "34 [storage.buckets.images] objects_path -", "38 [studio] -",
      ])
  }

  @Test func providerKeysAreReadForSwitchedOnProvidersWithTheirAudiences() throws {
    let folder = try folder(
      """
      [auth.external.apple]
      enabled = true
      client_id = "com.example.app, com.example.web"
      secret = "not-read"
      jwks = "https://appleid.apple.com/auth/keys"
      [auth.external.google]
      enabled = false
      client_id = "g"
      jwks = "http://ignored.example"
      """)
    let config = try ProjectFolderConfig(folder: folder)
    #expect(
      config.providerKeys == [
        "apple": .init(
          jwks: "https://appleid.apple.com/auth/keys",
          clientIDs: ["com.example.app", "com.example.web"])
      ])
    #expect(config.unsupported.map(\.key) == ["[auth.external.apple] secret"])
  }

  @Test func functionEntriesAreEveryFunctionTableAndNothingElse() throws {
    let folder = try folder(
      """
      [api]
      port = 54321 # a comment
      [functions.hello]
      verify_jwt = false   # webhooks
      import_map = "./functions/hello/map.json"
      [functions."quoted-name"]
      enabled = false
      entrypoint = './functions/q/main.ts'
      """)
    let entries = try ProjectFolderConfig.functionEntries(folder: folder)
    #expect(
      entries.sorted { $0.name < $1.name } == [
        .init(name: "hello", verifyJWT: false, importMap: "./functions/hello/map.json"),
        .init(name: "quoted-name", enabled: false, entrypoint: "./functions/q/main.ts"),
      ])
    let none = ProjectFolder(root: "/nonexistent")
    #expect(try ProjectFolderConfig.functionEntries(folder: none) == [])
  }

  struct BadValue: Sendable, CustomStringConvertible {
    var text: String
    var error: String
    var description: String { error }
  }

  static let badValues: [BadValue] = [
    BadValue(
      text: "[api]\nport = \"54321\"", error: "2:8: [api] port must be an integer, not a string"),
    BadValue(
      text: "[api]\nmax_rows = 0",
      error: "2:12: [api] max_rows must be between 1 and 2147483647, not 0"),
    BadValue(
      text: "[api]\nschemas = [\"public\", 1]",
      error: "2:22: [api] schemas must hold only strings, not an integer"),
    BadValue(
      text: "[auth.email]\nenable_confirmations = \"yes\"",
      error: "2:24: [auth.email] enable_confirmations must be true or false, not a string"),
    BadValue(
      text: "[auth.sms.test_otp]\n4152127777 = \"12\"",
      error:
        "2:14: [auth.sms.test_otp] 4152127777 must be a code of 6 to 10 digits for a phone number (E.164)"
    ),
    BadValue(
      text: "[storage]\nfile_size_limit = \"lots\"",
      error:
        "2:19: [storage] file_size_limit must be a size such as \"50MiB\", \"5MB\" or a byte count"),
    BadValue(
      text: "[auth]\nsite_url = \"env(SNM_TEST_SURELY_UNSET_VARIABLE)\"",
      error:
        "2:12: [auth] site_url names the environment variable SNM_TEST_SURELY_UNSET_VARIABLE, which is not set"
    ),
    BadValue(
      text: "[storage.buckets]\nimages = 1",
      error: "2:10: [storage.buckets] images must be a table of the bucket's settings"),
    BadValue(
      text: "[functions.a]\nenabled = true\nverify_jwt = 1",
      error: "3:14: [functions.a] verify_jwt must be true or false, not an integer"),
    BadValue(
      text: "[functions.a]\nimport_map = false",
      error: "2:14: [functions.a] import_map must be a string, not a boolean"),
    BadValue(
      text: "[realtime]\nmax_joins_per_second = 0",
      error: "2:24: [realtime] max_joins_per_second must be between 1 and 2147483647, not 0"),
    BadValue(
      text: "[functions]\na = 1",
      error: "2:5: [functions] a must be a table of the function's settings"),
  ]

  @Test(arguments: badValues)
  func aValueOfTheWrongKindIsAnErrorAtItsPlace(_ bad: BadValue) throws {
    let folder = try folder(bad.text)
    do {
      _ = try ProjectFolderConfig(folder: folder)
      Issue.record("read")
    } catch {
      #expect(error.kind == .usage)
      #expect(error.message == folder.configFile + ":" + bad.error)
    }
  }

  /// A folder's name and a key of the file are anyone's text: the messages naming them show
  /// U+202E (which reverses what follows it on a terminal) and the controls as escapes, a key as
  /// TOML writes it (`"a\u202E"`: the key the file holds), the folder as `\u{202E}`.
  @Test func theFolderAndTheKeysAMessageNamesShowTheirHiddenCharactersEscaped() throws {
    let root =
      FileManager.default.temporaryDirectory.path + "/snm-config-\u{202E}gpj-\(UUID().uuidString)"
    let shownRoot = root.replacingOccurrences(of: "\u{202E}", with: "\\u{202E}")
    try FileManager.default.createDirectory(
      atPath: root + "/supabase", withIntermediateDirectories: true)
    let file = root + "/supabase/config.toml"
    let text = """
      [auth]
      site_url = "http://127.0.0.1:3000"
      [auth.rate_limit]
      token_refresh = 0
      "x\u{202E}\\u001By" = 1
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    let config = try ProjectFolderConfig(folder: ProjectFolder(root: root))
    #expect(
      config.notes == [
        "snm local: \(shownRoot)/supabase/config.toml: not supported by the local project, ignored:",
        "  5: [auth.rate_limit] \"x\\u202E\\u001By\"",
      ])
    try Data("[realtime]\nmax_joins_per_second = 0".utf8).write(to: URL(fileURLWithPath: file))
    do {
      _ = try ProjectFolderConfig(folder: ProjectFolder(root: root))
      Issue.record("read")
    } catch {
      #expect(
        error.message == shownRoot + "/supabase/config.toml:2:24: [realtime] max_joins_per_second"
          + " must be between 1 and 2147483647, not 0")
    }
  }

  @Test func relativePathsAreRelativeToTheSupabaseFolder() {
    let folder = ProjectFolder(root: "/repo/app")
    #expect(folder.resolved("./seed.sql") == "/repo/app/supabase/seed.sql")
    #expect(folder.resolved("../keys/k.json") == "/repo/app/keys/k.json")
    #expect(folder.resolved("/etc/k.json") == "/etc/k.json")
    #expect(
      folder.defaultDataDir().hasSuffix("/snm/projects/app-\(ProjectFolder.pathHash("/repo/app"))"))
    #expect(ProjectFolder.pathHash("/repo/app") != ProjectFolder.pathHash("/repo/app2"))
  }

  @Test func aFolderWithoutConfigKeepsEveryDefault() throws {
    let root = FileManager.default.temporaryDirectory.path + "/snm-config-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: root + "/supabase", withIntermediateDirectories: true)
    let config = try ProjectFolderConfig(folder: ProjectFolder(root: root))
    #expect(!config.hasFile && config.port == nil && config.unsupported.isEmpty)
    #expect(config.seedPaths == ["./seed.sql"])
  }
}
