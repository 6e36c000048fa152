import Testing

@testable import SNMSupabase

@Suite struct XDGDirectoryTests {
  @Test(arguments: [
    (XDGDirectory.state, "XDG_STATE_HOME", "/h/.local/state/snm"),
    (XDGDirectory.cache, "XDG_CACHE_HOME", "/h/.cache/snm"),
    (XDGDirectory.config, "XDG_CONFIG_HOME", "/h/.config/snm"),
  ])
  func anAbsoluteVariableWinsElseHome(_ kind: XDGDirectory, _ variable: String, _ home: String) {
    #expect(kind.snmPath(environment: [variable: "/x", "HOME": "/h"]) == "/x/snm")
    #expect(kind.snmPath(environment: ["HOME": "/h"]) == home)
    #expect(kind.snmPath(environment: [variable: "relative", "HOME": "/h"]) == home)
  }

  @Test func theSessionStoreKeepsItsFolder() {
    #expect(FileSessionStore.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/snm")
  }
}

/// File names derived from the project URL must stay the same from one version to the next, or
/// the stored session and the schema cache would be lost.
@Suite struct StableFileNameTests {
  @Test func theHashIsFNV1a64() {
    #expect(FileIO.stableHash("") == 0xcbf2_9ce4_8422_2325)
    #expect(FileIO.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
  }

  @Test func theSessionFileKeepsItsName() {
    #expect(
      FileSessionStore(directory: "/d").path(project: "http://127.0.0.1:54321")
        == "/d/session-127.0.0.1-54321-654be855.json")
  }
}
