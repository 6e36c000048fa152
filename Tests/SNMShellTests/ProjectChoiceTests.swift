import Foundation
import Testing

@testable import SNMShell

/// A profile named by --profile beats the variables, and says so when they name another project.
@Test func aProfileBeatsTheEnvironment() throws {
  let directory = NSTemporaryDirectory() + "snm-choice-\(UUID().uuidString)"
  try FileManager.default.createDirectory(
    atPath: directory + "/snm", withIntermediateDirectories: true)
  let config = #"{"profiles": {"staging": {"url": "https://stag.supabase.co", "anon_key": "s"}}}"#
  try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/snm/config.json"))
  var options = ShellOptions()
  options.profile = "staging"
  let choice = try ProjectChoice.resolve(
    options,
    environment: [
      "XDG_CONFIG_HOME": directory, "SUPABASE_URL": "https://prod.supabase.co",
      "SUPABASE_SECRET_KEY": "sb_secret_prod",
    ])
  guard case .project(let project) = choice.target else {
    Issue.record("expected a project, got \(choice.target)")
    return
  }
  #expect(project.url.absoluteString == "https://stag.supabase.co")
  #expect(project.key == "s")
  #expect(choice.source == "--profile staging")
  #expect(
    choice.notes == [
      "using profile 'staging' (https://stag.supabase.co) from --profile, not SUPABASE_URL "
        + "(https://prod.supabase.co)"
    ])
}

@Test func flagsThatNameTwoProjectsAreRefused() {
  var options = ShellOptions()
  options.url = "https://abcd.supabase.co"
  options.local = true
  #expect(throws: UsageError("--url and --local each name a project: give one of them")) {
    try ProjectChoice.resolve(options, environment: [:])
  }
}

@Test func theLocalProjectsURLWithoutAKeyNamesTheLocalProject() throws {
  let choice = try ProjectChoice.resolve(
    ShellOptions(), environment: ["SUPABASE_URL": "http://127.0.0.1:54321/"])
  #expect(choice.target == .local(key: nil, serviceKey: nil))
  #expect(choice.source == "SUPABASE_URL")
  #expect(try ProjectChoice.resolve(ShellOptions(), environment: [:]).target == .unnamed)
}

@Test(arguments: [
  ("true", true), ("1", true), ("True", true), ("yes", true), ("woodpecker", true),
  ("", false), ("0", false), ("false", false), ("FALSE", false), ("no", false), ("off", false),
])
func ciIsAnyTruthyValue(value: String, set: Bool) {
  #expect(ProjectChoice.underCI(["CI": value]) == set)
}

@Test func aServicePathStandsForItsProject() throws {
  #expect(
    ProjectSelection.projectURL("https://abcd.supabase.co/rest/v1/")?.absoluteString
      == "https://abcd.supabase.co")
  #expect(
    ProjectSelection.servicePath(in: "https://abcd.supabase.co/auth/v1/token") == "/auth/v1/token")
  #expect(ProjectSelection.servicePath(in: "https://example.com/supabase") == nil)
  #expect(
    ProjectSelection.projectURL("https://example.com/supabase/storage/v1")?.absoluteString
      == "https://example.com/supabase")
  var options = ShellOptions()
  options.url = "https://abcd.supabase.co/rest/v1"
  options.key = "k"
  let choice = try ProjectChoice.resolve(options, environment: [:])
  #expect(
    choice.notes == [
      "--url ends in /rest/v1, which snm adds itself: using the project URL https://abcd.supabase.co"
    ])
}

@Test func theTargetLineNamesTheKindOfKeyNeverTheKey() throws {
  let project = try ProjectSelection(
    url: "https://user:pw@abcd.supabase.co", key: "sb_secret_abc")
  let line = RunTarget(project: project, source: "--url").line
  #expect(line == "target: https://abcd.supabase.co (secret key, from --url)")
}

/// The spaces around a URL go as Foundation's `.whitespaces` trim took them (Unicode's space
/// separators and the tab, scalar by scalar, so a space a combining mark follows goes too), and
/// nothing else: snm trims them itself, which is cheaper at start-up.
@Test func spacesAroundAURLGoAsFoundationsTrimTookThem() {
  for text in [
    " \thttps://abcd.supabase.co \t", "\u{00A0}https://abcd.supabase.co\u{3000}", "https://x",
    "\nhttps://x\n", "  ", "", " a b ", " \u{0301}https://x\u{2003}", "https://x \u{0301}",
  ] {
    #expect(
      ProjectSelection.trimmedOfSpaces(text) == text.trimmingCharacters(in: .whitespaces), "\(text)"
    )
  }
  #expect(
    ProjectSelection.projectURL("  https://abcd.supabase.co/  ")?.absoluteString
      == "https://abcd.supabase.co")
}

/// A server key in a client key's variable would run every request as service_role, past
/// row-level security: refused, naming the variable. Set on purpose elsewhere, it is used.
@Test func aServerKeyInAClientKeysVariableIsRefused() throws {
  let serviceJWT = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2ln"
  for (name, key) in [
    ("SUPABASE_ANON_KEY", "sb_secret_abc"), ("SUPABASE_PUBLISHABLE_KEY", "sb_secret_abc"),
    ("SUPABASE_ANON_KEY", serviceJWT),
  ] {
    let environment = ["SUPABASE_URL": "https://abcd.supabase.co", name: key]
    #expect(throws: UsageError.self) {
      try ProjectChoice.resolve(ShellOptions(), environment: environment)
    }
    var url = ShellOptions()
    url.url = "https://abcd.supabase.co"
    do {
      _ = try ProjectChoice.resolve(url, environment: [name: key])
      Issue.record("\(name) holding a server key was taken with --url")
    } catch {
      #expect(error.description.hasPrefix("$\(name) holds a server key (role service_role"))
    }
    var flagged = url
    flagged.key = key
    #expect(throws: Never.self) { try ProjectChoice.resolve(flagged, environment: [name: key]) }
  }
  for (name, key) in [
    ("SUPABASE_SECRET_KEY", "sb_secret_abc"), ("SUPABASE_SERVICE_ROLE_KEY", serviceJWT),
    ("SUPABASE_ANON_KEY", "sb_publishable_abc"), ("SUPABASE_ANON_KEY", "custom-gateway-key"),
  ] {
    let choice = try ProjectChoice.resolve(
      ShellOptions(), environment: ["SUPABASE_URL": "https://abcd.supabase.co", name: key])
    guard case .project(let project) = choice.target else {
      Issue.record("expected a project for \(name), got \(choice.target)")
      continue
    }
    #expect(project.key == key)
  }
}

/// A client key in a server key's variable ran `as service` (or every request) as anon, under
/// row-level security, where the job asked to pass it: refused, naming the variable. A key of no
/// known kind (a custom gateway's) is taken, and `--service-key` is used as given.
@Test func aClientKeyInAServerKeysVariableIsRefused() throws {
  let anonJWT = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2ln"
  for (name, key) in [
    ("SUPABASE_SECRET_KEY", "sb_publishable_abc"), ("SUPABASE_SERVICE_ROLE_KEY", anonJWT),
  ] {
    for environment in [
      ["SUPABASE_URL": "https://abcd.supabase.co", name: key],
      [
        "SUPABASE_URL": "https://abcd.supabase.co", name: key,
        "SUPABASE_PUBLISHABLE_KEY": "sb_publishable_abc",
      ],
    ] {
      do {
        _ = try ProjectChoice.resolve(ShellOptions(), environment: environment)
        Issue.record("\(name) holding a client key was taken")
      } catch {
        #expect(error.description.hasPrefix("$\(name) holds a client key (role anon"))
      }
    }
    var flagged = ShellOptions()
    flagged.serviceKey = "sb_secret_abc"
    #expect(throws: Never.self) {
      try ProjectChoice.resolve(
        flagged,
        environment: [
          "SUPABASE_URL": "https://abcd.supabase.co", name: key,
          "SUPABASE_PUBLISHABLE_KEY": "sb_publishable_abc",
        ])
    }
  }
  let custom = try ProjectChoice.resolve(
    ShellOptions(),
    environment: ["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_SECRET_KEY": "custom-key"])
  guard case .project(let project) = custom.target else {
    Issue.record("expected a project, got \(custom.target)")
    return
  }
  #expect(project.key == "custom-key")
}

/// A note quoting the environment's URL shows its hidden characters escaped, by the one walk:
/// the old escaper let U+202E (right-to-left override) through and wrote `\u{1b}` in lowercase.
@Test func aNoteShowsTheEnvironmentsURLWithItsHiddenCharactersEscaped() throws {
  var options = ShellOptions()
  options.url = "https://abcd.supabase.co"
  options.key = "sb_publishable_abc"
  let choice = try ProjectChoice.resolve(
    options, environment: ["SUPABASE_URL": "https://evil\u{202E}oc.esabapus.x\u{1B}[2J"])
  #expect(
    choice.notes == [
      "using --url (https://abcd.supabase.co), not SUPABASE_URL "
        + "(https://evil\\u{202E}oc.esabapus.x\\u{1B}[2J)"
    ])
}
