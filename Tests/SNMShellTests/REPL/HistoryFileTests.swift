import Foundation
import Testing

@testable import SNMShell

private func temporaryPath() -> String {
  NSTemporaryDirectory() + "snm-history-\(UUID().uuidString)/nested/history"
}

@Test func historyRoundTripsMultiLineStatementsAndBackslashes() {
  let file = HistoryFile(path: temporaryPath())
  file.append("from user_info select *")
  file.append("from user_info insert {\n  \"name\": \"Kim\\n\"}")
  file.append("rpc sum {\"numbers\": [1, 2]} \\")
  #expect(
    file.load() == [
      "from user_info select *", "from user_info insert {\n  \"name\": \"Kim\\n\"}",
      "rpc sum {\"numbers\": [1, 2]} \\",
    ])
}

@Test func historyFileIsPrivateToTheUser() throws {
  let path = temporaryPath()
  HistoryFile(path: path).append("tables")
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  #expect((attributes[.posixPermissions] as? Int) == 0o600)
  let directory = try FileManager.default.attributesOfItem(
    atPath: (path as NSString).deletingLastPathComponent)
  #expect((directory[.posixPermissions] as? Int) == 0o700)
}

@Test func historyKeepsTheNewestEntriesUpToItsLimit() {
  let file = HistoryFile(path: temporaryPath(), limit: 3)
  for index in 1...7 { file.append("select \(index)") }
  #expect(file.load() == ["select 5", "select 6", "select 7"])
  // Loading trimmed the file to the limit once it held twice as many.
  let text = (try? String(contentsOfFile: file.path, encoding: .utf8)) ?? ""
  #expect(text == "select 5\nselect 6\nselect 7\n")
  let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
  #expect((attributes?[.posixPermissions] as? Int) == 0o600)
}

@Test func historyPathFollowsXDGStateHome() {
  #expect(
    HistoryFile.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
      == "/s/snm/history")
  #expect(HistoryFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/snm/history")
  #expect(
    HistoryFile.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
      == "/h/.local/state/snm/history")
}

@Test func aFullDiskOrAMissingDirectoryIsReportedNotIgnored() throws {
  // /dev/full accepts the open and refuses every write with ENOSPC.
  #expect(
    HistoryFile(path: "/dev/full").append("tables")
      == "cannot write /dev/full: no space left on device")
  let underAFile = HistoryFile(path: "/dev/null/snm/history")
  #expect(underAFile.append("tables")?.hasPrefix("cannot create /dev/null/snm") == true)
  #expect(underAFile.load() == [])
  let file = HistoryFile(path: temporaryPath())
  #expect(file.append("tables") == nil)
}
