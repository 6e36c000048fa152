import Foundation
import SNMWire
import Testing

@testable import SNMLocal

/// The Postgres socket folder is made private or refused, never adopted as another left it.
@Suite struct SocketDirectoryTests {
  let owner = SocketDirectory.Owner(uid: getuid(), gid: getgid())

  func scratch() throws -> String {
    let path = NSTemporaryDirectory() + "snm-socket-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    lstat(path, &info)
    return info.st_mode & 0o7777
  }

  @Test func aNewFolderIsMadePrivate() throws {
    let parent = try scratch()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let umask = Glibc.umask(0)
    defer { Glibc.umask(umask) }
    try SocketDirectory.ensure(parent + "/run", owner: owner)
    #expect(mode(parent + "/run") == 0o700)
    try SocketDirectory.ensure(parent + "/run", owner: owner)  // its own folder again: fine
  }

  @Test func aFolderOthersMayWriteInIsRefused() throws {
    let parent = try scratch()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    mkdir(parent + "/run", 0o700)
    chmod(parent + "/run", 0o777)
    #expect(throws: LocalProjectError.self) {
      try SocketDirectory.ensure(parent + "/run", owner: owner)
    }
    #expect(mode(parent + "/run") == 0o777, "refused as it is, not quietly changed")
    #expect(
      SocketDirectory.problem(with: parent + "/run", owner: owner) == "its mode is 777, not 700")
  }

  @Test func aLinkOrAnotherOwnerIsRefused() throws {
    let parent = try scratch()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    mkdir(parent + "/target", 0o700)
    symlink(parent + "/target", parent + "/run")
    #expect(SocketDirectory.problem(with: parent + "/run", owner: owner) == "it is a symbolic link")
    let stranger = SocketDirectory.Owner(uid: owner.uid + 4242, gid: owner.gid)
    #expect(
      SocketDirectory.problem(with: parent + "/target", owner: stranger)?.hasPrefix(
        "it belongs to") == true)
  }

  @Test func aPrivateFolderHasANameNoOneCanGuess() throws {
    let first = try SocketDirectory.makePrivate(owner: owner)
    let second = try SocketDirectory.makePrivate(owner: owner)
    defer {
      rmdir(first)
      rmdir(second)
    }
    #expect(first != second && first.hasPrefix("/tmp/snm-") && first.utf8.count == 15)
    #expect(SocketDirectory.problem(with: first, owner: owner) == nil)
  }

  /// An owner the password database has no entry of stops the start, naming the account and
  /// what to do; the running user no longer stands in for it (the socket folder and the
  /// cluster's folder were made as root's, never given away). A cluster with no owner (snm not
  /// run as root) is the running user's: nothing is given away, no account is needed.
  @Test func anOwnerWithNoAccountStopsAndNoOwnerIsTheRunningUser() throws {
    let parent = try scratch()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let missing = ClusterLayout(baseDir: parent + "/cluster", owner: "snm-no-such-account")
    #expect(AccountEntry(name: "snm-no-such-account") == nil)
    let error = #expect(throws: LocalProjectError.self) { try SocketDirectory.Owner.of(missing) }
    #expect(error?.kind == .unavailable)
    #expect(
      error?.message.hasPrefix(
        "the cluster \(parent)/cluster runs as the account snm-no-such-account, which this "
          + "machine does not have (no entry in the password database): install the postgresql "
          + "package (it makes the account) or create it (useradd --system --user-group "
          + "snm-no-such-account)") == true)
    #expect(throws: LocalProjectError.self) { try Cluster(layout: missing).initializeIfNeeded() }
    #expect(!FileManager.default.fileExists(atPath: parent + "/cluster"), "nothing was made")

    let mine = ClusterLayout(baseDir: parent + "/cluster", owner: nil)
    #expect(try SocketDirectory.Owner.of(mine) == owner)
  }

  @Test func aLongClusterPathGetsAPrivateFolder() throws {
    let long = ClusterLayout(baseDir: "/tmp/" + String(repeating: "x", count: 90), owner: nil)
    #expect(long.needsPrivateSocketDir && long.socketDir == long.legacySocketDir)
    var chosen = long
    chosen.privateSocketDir = "/tmp/snm-AbC123"
    #expect(chosen.socketDir == "/tmp/snm-AbC123")
    let short = ClusterLayout(baseDir: "/tmp/p", owner: nil)
    #expect(!short.needsPrivateSocketDir && short.socketDir == "/tmp/p/run")
  }
}
