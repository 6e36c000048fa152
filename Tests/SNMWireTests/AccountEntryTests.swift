import Foundation
import Testing

@testable import SNMWire

/// `getent` (the system's own reader of its databases): the fields of one entry, nil when the
/// database has none (exit 2).
enum Getent {
  static func fields(_ database: String, _ key: String) throws -> [String]? {
    let getent = Process()
    getent.executableURL = URL(fileURLWithPath: "/usr/bin/getent")
    getent.arguments = [database, key]
    let output = Pipe()
    getent.standardOutput = output
    try getent.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    getent.waitUntilExit()
    if getent.terminationStatus == 2 { return nil }
    try #require(getent.terminationStatus == 0, "getent \(database) \(key) said \(text)")
    return text.trimmingCharacters(in: .newlines).split(
      separator: ":", omittingEmptySubsequences: false
    ).map(String.init)
  }

  /// `key`'s password entry as an ``AccountEntry``.
  static func account(_ key: String) throws -> AccountEntry? {
    guard let fields = try fields("passwd", key) else { return nil }
    try #require(fields.count == 7, "getent passwd \(key) said \(fields)")
    let uid = try #require(uid_t(fields[2]))
    let gid = try #require(gid_t(fields[3]))
    return AccountEntry(name: fields[0], uid: uid, gid: gid, home: fields[5])
  }
}

/// The password database read by user id and by name, checked against `getent passwd`, with a
/// first buffer too small for any entry (read again in a larger one, not taken as no account).
@Suite struct AccountEntryTests {
  static let unknownUID: uid_t = 3_999_999_917
  static let unknownName = "snm-no-such-account-3999"

  @Test func byUserID() throws {
    for uid in [getuid(), 0] {
      let expected = try #require(try Getent.account(String(uid)))
      #expect(AccountEntry(uid: uid) == expected)
    }
  }

  @Test func byName() throws {
    let mine = try #require(try Getent.account(String(getuid())))
    for name in [mine.name, "root"] {
      let expected = try #require(try Getent.account(name))
      #expect(AccountEntry(name: name) == expected)
    }
  }

  /// An entry past the first buffer (1, 8, 40 bytes: smaller than any) is read whole.
  @Test func anEntryPastTheFirstBufferIsReadWhole() throws {
    let expected = try #require(try Getent.account(String(getuid())))
    for room in [1, 8, 40] {
      #expect(AccountEntry(uid: getuid(), room: room) == expected, "room \(room)")
      #expect(AccountEntry(name: expected.name, room: room) == expected, "room \(room)")
    }
  }

  @Test func noSuchAccountIsNil() throws {
    try #require(try Getent.fields("passwd", String(Self.unknownUID)) == nil)
    try #require(try Getent.fields("passwd", Self.unknownName) == nil)
    #expect(AccountEntry(uid: Self.unknownUID) == nil)
    #expect(AccountEntry(name: Self.unknownName) == nil)
    #expect(AccountEntry(uid: Self.unknownUID, room: 1) == nil)
    #expect(AccountEntry(name: Self.unknownName, room: 1) == nil)
  }

  /// The private group's readers with first buffers too small for any entry: the group is still
  /// found by its id, and the walk of all accounts still reaches root's (it stopped at the first
  /// entry past its buffer and answered that no other account had the group).
  @Test func privateGroupReadsPastTheFirstBuffer() throws {
    let root = try #require(try Getent.fields("group", "0"))
    #expect(PrivateGroup.members(of: 0, room: 1)?.name == root[0])
    let stranger = Self.unknownUID
    #expect(PrivateGroup.anotherAccount(withPrimaryGroup: 0, than: stranger, room: 1) == true)
    #expect(PrivateGroup.anotherAccount(withPrimaryGroup: 0, than: stranger) == true)
  }

  /// A group no account has as its primary group: the walk reaches the end and says so.
  @Test func theWalkEndsWithNoAccountForAnUnusedGroup() throws {
    let unused: gid_t = 3_999_999_917
    #expect(PrivateGroup.anotherAccount(withPrimaryGroup: unused, than: getuid(), room: 1) == false)
    #expect(PrivateGroup.anotherAccount(withPrimaryGroup: unused, than: getuid()) == false)
  }
}
