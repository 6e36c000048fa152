import Foundation
import Testing

@testable import SNMLocalFunctions

/// The functions' share of the gateway's workers, and where their sockets go.
@Suite struct FunctionCallShareTests {
  func place(_ entry: FunctionCallShare.Entry) -> FunctionCallShare.Place? {
    if case .admitted(let place) = entry { return place }
    return nil
  }

  @Test func callsPastTheLimitAreRefusedUntilOneLeaves() throws {
    let share = FunctionCallShare(limit: 2)
    let first = try #require(place(share.enter()))
    let second = try #require(place(share.enter()))
    guard case .refused(first: true) = share.enter() else {
      Issue.record("the third call was not refused as the first refusal")
      return
    }
    guard case .refused(first: false) = share.enter() else {
      Issue.record("the fourth call was not refused quietly")
      return
    }
    first.leave()
    first.leave()  // a second leave gives nothing back
    #expect(share.running == 1)
    let third = try #require(place(share.enter()))
    #expect(share.running == 2)
    guard case .refused(first: true) = share.enter() else {
      Issue.record("a refusal after the share had room was not counted as a first")
      return
    }
    second.leave()
    third.leave()
    #expect(share.running == 0)
  }

  @Test func aPlaceDroppedWithoutLeavingIsGivenBack() {
    let share = FunctionCallShare(limit: 1)
    do { _ = place(share.enter()) }
    #expect(share.running == 0)
  }

  func scratch(_ name: String) throws -> String {
    let path =
      FileManager.default.temporaryDirectory.path + "/" + name + "-"
      + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func socketsGoInTheRuntimeFolderPrivately() throws {
    let runtime = try scratch("fn-runtime")
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let made = FunctionRunner.makeSocketDirectory(in: runtime, runtime: nil)
    #expect(made == runtime + "/run")
    let attributes = try FileManager.default.attributesOfItem(atPath: runtime + "/run")
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    // An existing folder is made private again.
    chmod(runtime + "/run", 0o755)
    #expect(FunctionRunner.makeSocketDirectory(in: runtime, runtime: nil) == runtime + "/run")
    let again = try FileManager.default.attributesOfItem(atPath: runtime + "/run")
    #expect((again[.posixPermissions] as? Int) == 0o700)
  }

  @Test func aRuntimeFolderTooLongOrWithACommaUsesAPrivateTemporaryOne() throws {
    let xdg = try scratch("xdg")
    defer { try? FileManager.default.removeItem(atPath: xdg) }
    for runtime in ["/nowhere/" + String(repeating: "a", count: 90), "/tmp/with,comma"] {
      let made = try #require(FunctionRunner.makeSocketDirectory(in: runtime, runtime: xdg))
      defer { try? FileManager.default.removeItem(atPath: made) }
      #expect(made.hasPrefix(xdg + "/snm-functions-"))
      let attributes = try FileManager.default.attributesOfItem(atPath: made)
      #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }
  }
}
