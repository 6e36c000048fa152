import Foundation
import Testing

@testable import SNMWire

/// The home folder when `HOME` is set, empty or unset: the e2e tests all set HOME, so the password
/// database's fallback is checked here, against `getent passwd` (the system's own reader of it).
@Suite struct HomeFolderTests {
  /// This account's home as `getent passwd UID` gives it (its sixth field).
  private static func accountHome() throws -> String {
    try #require(try Getent.account(String(getuid())), "getent knows no user \(getuid())").home
  }

  @Test func homeSetIsTakenAsItIs() {
    #expect(HomeFolder.path(home: "/tmp/h") == "/tmp/h")
    #expect(HomeFolder.path(home: "relative/h") == "relative/h")
    #expect(HomeFolder.path(home: "/") == "/")
  }

  /// HOME unset (nil) and set but empty both mean the account's own home, as shells take them.
  @Test func homeUnsetOrEmptyIsTheAccountsEntry() throws {
    let expected = try Self.accountHome()
    try #require(!expected.isEmpty)
    #expect(HomeFolder.path(home: nil) == expected)
    #expect(HomeFolder.path(home: "") == expected)
  }

  /// An entry that does not fit the first buffer is read with a larger one, not taken as no home
  /// (it gave `/`: `~/out.csv` was /out.csv).
  @Test func anEntryPastTheFirstBufferIsReadWhole() throws {
    let expected = try Self.accountHome()
    for room in [1, 8, 40] {
      #expect(HomeFolder.path(home: nil, user: getuid(), room: room) == expected, "room \(room)")
      #expect(HomeFolder.path(home: "", user: getuid(), room: room) == expected, "room \(room)")
    }
  }

  /// A user id the password database does not know has `/` as its home, as login(1) gives one.
  @Test func aUserWithNoEntryHasTheRootFolder() throws {
    let unknown = AccountEntryTests.unknownUID
    try #require(try Getent.fields("passwd", String(unknown)) == nil, "user \(unknown) exists here")
    #expect(HomeFolder.path(home: nil, user: unknown) == "/")
    #expect(HomeFolder.path(home: "", user: unknown) == "/")
    #expect(HomeFolder.path(home: "/tmp/h", user: unknown) == "/tmp/h")
  }
}
