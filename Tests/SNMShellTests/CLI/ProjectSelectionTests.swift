import Foundation
import Testing

@testable import SNMShell

@Test func flagsWinOverTheEnvironment() throws {
  var options = CommandLineOptions()
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
    CommandLineOptions(),
    environment: ["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k"])
  #expect(project?.name == "abcd")
}

@Test func nothingConfiguredMeansTheLocalProject() throws {
  #expect(try ProjectSelection.resolve(CommandLineOptions(), environment: [:]) == nil)
}

@Test func halfAConfigurationIsAUsageError() {
  var options = CommandLineOptions()
  options.url = "http://127.0.0.1:54330"
  #expect(
    throws: UsageError("a project URL needs a key: pass --key or set SUPABASE_ANON_KEY")
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
  var options = CommandLineOptions()
  options.profile = "prod"
  let project = try ProjectSelection.resolve(options, environment: ["XDG_CONFIG_HOME": directory])
  #expect(
    project == (try ProjectSelection(url: "https://abcd.supabase.co", key: "k", name: "prod")))
  options.profile = "staging"
  #expect(
    throws: UsageError("no profile 'staging' in \(directory)/snm/config.json (it has: prod)")
  ) { try ProjectSelection.resolve(options, environment: ["XDG_CONFIG_HOME": directory]) }
}
