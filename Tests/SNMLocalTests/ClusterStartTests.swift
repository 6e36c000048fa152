import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// A postmaster killed with SIGKILL stays a zombie until its parent reaps it; `start` must wait for
/// that rather than fail with "lock file postmaster.pid already exists".
@Suite struct ClusterStartTests {
  /// A data dir whose postmaster.pid names `pid`.
  func cluster(recording pid: pid_t) throws -> Cluster {
    let base = NSTemporaryDirectory() + "snm-cluster-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: base + "/data", withIntermediateDirectories: true)
    try "\(pid)\n/data\n".write(
      toFile: base + "/data/postmaster.pid", atomically: true, encoding: .utf8)
    return Cluster(layout: ClusterLayout(baseDir: base, owner: nil), binDir: "/nonexistent")
  }

  /// A child of this process, killed and not yet reaped: a zombie, as a killed postmaster is.
  func zombie() throws -> pid_t {
    let pid = try Subprocess.spawnAttached("/bin/sleep", ["30"], extraEnvironment: [:])
    kill(pid, SIGKILL)
    for _ in 0..<200 where !Subprocess.isZombie(pid) { usleep(5_000) }
    #expect(Subprocess.isZombie(pid))
    return pid
  }

  @Test func waitsUntilAKilledPostmasterIsReaped() throws {
    let pid = try zombie()
    let cluster = try cluster(recording: pid)
    #expect(!cluster.isRunning, "a zombie is not a running postmaster")
    let started = monotonicSeconds()
    let reaper = Thread {
      usleep(300_000)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    reaper.start()
    try cluster.waitForKilledPostmaster(timeout: 10)
    #expect(monotonicSeconds() - started >= 0.25)
  }

  @Test func aZombieThatLingersIsReportedClearly() throws {
    let pid = try zombie()
    defer {
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    let cluster = try cluster(recording: pid)
    #expect(
      throws: LocalProjectError(
        .unavailable,
        "postgres (pid \(pid)) was killed and its parent has not reaped it yet; try again in a moment"
      )
    ) {
      try cluster.waitForKilledPostmaster(timeout: 0.2)
    }
  }

  @Test func aStalePidFileOfAGoneProcessDoesNotWait() throws {
    let pid = try zombie()
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let started = monotonicSeconds()
    try cluster(recording: pid).waitForKilledPostmaster(timeout: 10)
    #expect(monotonicSeconds() - started < 1)
  }
}
