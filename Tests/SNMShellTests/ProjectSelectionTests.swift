import Foundation
import Testing

@testable import SNMShell

@Test func flagsWinOverTheEnvironment() throws {
  var options = ShellOptions()
  options.url = "http://127.0.0.1:54330/"
  options.key = "flag-key"
  let project = try ProjectSelection.resolve(
    options, environment: ["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k"])
  #expect(project?.url.absoluteString == "http://127.0.0.1:54330")
  #expect(project?.key == "flag-key")
  #expect(project?.name == "local")
}

@Test func theEnvironmentNamesAHostedProjectByItsRef() throws {
  let project = try ProjectSelection.resolve(
    ShellOptions(),
    environment: ["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k"])
  #expect(project?.name == "abcd")
}

/// Either kind of key from any of the variables Supabase documents; the client keys before the
/// server ones, so a job that exports both runs as anon.
@Test(arguments: [
  (["SUPABASE_PUBLISHABLE_KEY": "p"], "p"), (["SUPABASE_SECRET_KEY": "s"], "s"),
  (["SUPABASE_SERVICE_ROLE_KEY": "r"], "r"), (["SUPABASE_ANON_KEY": "a"], "a"),
  (["SUPABASE_SECRET_KEY": "s", "SUPABASE_ANON_KEY": "a"], "a"),
  (["SUPABASE_PUBLISHABLE_KEY": "p", "SUPABASE_ANON_KEY": "a", "SUPABASE_SECRET_KEY": "s"], "p"),
])
func theKeyComesFromTheFirstVariableSet(variables: [String: String], key: String) throws {
  let environment = variables.merging(["SUPABASE_URL": "https://abcd.supabase.co"]) { a, _ in a }
  #expect(try ProjectSelection.resolve(ShellOptions(), environment: environment)?.key == key)
}

/// A client key's variable set but empty (a CI secret that is missing) is not passed over for a
/// server key's: the job would run as service_role where it named the client's key.
@Test(arguments: ["SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY"])
func anEmptyClientKeyVariableBesideAServerKeyIsRefused(empty: String) {
  let environment = [
    "SUPABASE_URL": "https://abcd.supabase.co", empty: "", "SUPABASE_SECRET_KEY": "s",
  ]
  #expect(throws: UsageError.self) {
    try ProjectSelection.resolve(ShellOptions(), environment: environment)
  }
}

@Test func theKeysRoleIsReadWithoutDecodingANewKey() throws {
  let url = "https://abcd.supabase.co"
  #expect(try ProjectSelection(url: url, key: "sb_secret_x").keyRole == "service_role")
  #expect(try ProjectSelection(url: url, key: "sb_publishable_x").keyRole == "anon")
}

@Test func theKeysRoleFollowsAChangedKey() throws {
  var project = try ProjectSelection(url: "https://abcd.supabase.co", key: "sb_publishable_x")
  project.key = "sb_secret_x"
  #expect(project.keyRole == "service_role")
}

@Test func nothingConfiguredMeansTheLocalProject() throws {
  #expect(try ProjectSelection.resolve(ShellOptions(), environment: [:]) == nil)
}

@Test func halfAConfigurationIsAUsageError() {
  var options = ShellOptions()
  options.url = "http://127.0.0.1:54330"
  #expect(
    throws: UsageError(
      "a project URL needs a key: pass --key or set SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY)"
    )
  ) { try ProjectSelection.resolve(options, environment: [:]) }
  #expect(
    throws: UsageError("'ftp://x' is not a project URL: expected http(s)://host[:port]")
  ) { try ProjectSelection(url: "ftp://x", key: "k") }
}

@Test func profilesComeFromTheConfigFile() throws {
  let directory = NSTemporaryDirectory() + "snm-config-\(UUID().uuidString)"
  try FileManager.default.createDirectory(
    atPath: directory + "/snm", withIntermediateDirectories: true)
  let config = #"{"profiles": {"prod": {"url": "https://abcd.supabase.co", "anon_key": "k"}}}"#
  try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/snm/config.json"))
  var options = ShellOptions()
  options.profile = "prod"
  let project = try ProjectSelection.resolve(options, environment: ["XDG_CONFIG_HOME": directory])
  #expect(
    project == (try ProjectSelection(url: "https://abcd.supabase.co", key: "k", name: "prod")))
  options.profile = "staging"
  #expect(
    throws: UsageError("no profile 'staging' in \(directory)/snm/config.json (it has: prod)")
  ) { try ProjectSelection.resolve(options, environment: ["XDG_CONFIG_HOME": directory]) }
}

/// A project's session is known by marks of all its keys (SHA-256, never the keys): projects at
/// one URL with different keys share no mark; the same project's keys share its marks.
@Test func theSessionMarksTellProjectsAtOneURLApartWithoutTheKeys() throws {
  var first = try ProjectSelection(url: "http://127.0.0.1:54321", key: "sb_publishable_first")
  first.otherKeys = ["anon-jwt-first"]
  let second = try ProjectSelection(url: "http://127.0.0.1:54321", key: "sb_publishable_second")
  let firstByAnon = try ProjectSelection(url: "http://127.0.0.1:54321", key: "anon-jwt-first")
  #expect(first.sessionKeyMarks.count == 2)
  #expect(first.sessionKeyMarks.isDisjoint(with: second.sessionKeyMarks))
  #expect(firstByAnon.sessionKeyMarks.isSubset(of: first.sessionKeyMarks))
  #expect(!first.sessionKeyMarks.contains { $0.contains("first") })
}
