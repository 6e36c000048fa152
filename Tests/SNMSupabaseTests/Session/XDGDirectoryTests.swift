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
