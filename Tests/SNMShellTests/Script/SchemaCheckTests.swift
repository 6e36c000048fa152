import Foundation
import SNMQuery
import Testing

@testable import SNMShell

/// `snm check` with a cached schema: names the project does not have are warnings with the
/// closest name it has; a clean file stays clean.
@Test func namesTheSchemaLacksAreWarningsWithTheClosestName() throws {
  let text = """
    from dog_profle select *
    from user_info select nme, age where agee >= 3 order by created
    rpc nearby_dog {"lat": 1}
    describe walk_requests
    let d = from dog_profile select name where owner eq $session.user_id
    from user_info select name, dog_profile(name) where dog_profile.nme eq 'x'
    """
  let source = Source(text: text, fileName: "names.snm")
  let check = ScriptCheck.check(
    file: source, variables: [], loader: ScriptLoader(), schema: try demoSchema())
  #expect(!check.hasErrors)
  let rendered = check.rendered(colored: false)
  let expected = [
    "names.snm:1:6: warning: no table, view or function 'dog_profle' in the cached schema",
    "help: did you mean 'dog_profile'?",
    "names.snm:2:23: warning: no column 'nme' in 'user_info' in the cached schema",
    "help: did you mean 'name'?",
    "names.snm:2:38: warning: no column 'agee' in 'user_info' in the cached schema",
    "help: did you mean 'age'?",
    "names.snm:2:57: warning: no column 'created' in 'user_info' in the cached schema",
    "names.snm:3:5: warning: no function 'nearby_dog' in the cached schema",
    "help: did you mean 'nearby_dogs'?",
    "names.snm:4:10: warning: no table, view or function 'walk_requests' in the cached schema",
    "help: did you mean 'walk_request'?",
  ]
  for line in expected { #expect(rendered.contains(line), "\(line)\n\(rendered)") }
  #expect(!rendered.contains("names.snm:5:"), "known names are not warned about")
  #expect(!rendered.contains("names.snm:6:"), "embedded resources are not checked")
  let clean = ScriptCheck.check(
    file: Source(text: "from user_info select name where age >= 3\n", fileName: "ok.snm"),
    variables: [], loader: ScriptLoader(), schema: try demoSchema())
  #expect(clean.findings.isEmpty)
}

@Test func checkFindsTheSchemaCachedForTheProject() throws {
  let home = NSTemporaryDirectory() + "snm-check-cache-\(UUID().uuidString)"
  defer { try? FileManager.default.removeItem(atPath: home) }
  let environment = ["XDG_CACHE_HOME": home]
  let project = try ProjectSelection(url: "http://127.0.0.1:54399/", key: "key-of-this-project")
  let cache = SchemaCache(directory: SchemaCache.defaultDirectory(environment: environment))
  #expect(CheckCommand.cachedSchema(for: project, environment: environment) == nil)
  let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/schema/demo-openapi.json")
  cache.store(try Data(contentsOf: fixture), for: project)
  let schema = CheckCommand.cachedSchema(for: project, environment: environment)
  #expect(schema?.table(named: "walk_request") != nil)
  let later = try ProjectSelection(url: "http://127.0.0.1:54399", key: "key-of-another-project")
  #expect(CheckCommand.cachedSchema(for: later, environment: environment) == nil)
}
