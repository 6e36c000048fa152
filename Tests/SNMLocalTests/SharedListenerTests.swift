import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// `snm local serve`'s supervisor listens and gives the socket to each gateway worker: the server
/// serves on a socket it is given, and the worker is spawned with it as descriptor 3.
@Suite struct SharedListenerTests {
  /// The exit code of `/bin/sh -c script` spawned attached, given `descriptor` as 3.
  func exitCode(of script: String, inheriting descriptor: Int32?) throws -> Int32 {
    let pid = try Subprocess.spawnAttached(
      "/bin/sh", ["-c", script], extraEnvironment: [:], inheriting: descriptor)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  @Test func aServerGivenAListenerServesOnItAndItsStopEndsTheListeningForEveryHolder() throws {
    let listener = try HTTPServer.listen(port: 0)
    // The supervisor's copy: it stays open in this process after the server closes its own.
    let held = dup(listener)
    try #require(held >= 0)
    defer { close(held) }
    let port = try #require(HTTPServer.listeningPort(of: held))
    let server = HTTPServer(listening: listener) { _ in .json(status: 200, #"{"ok":true}"#) }
    #expect(server.requestedPort == port)
    try server.start()
    #expect(server.port == port)
    let answer = rawExchange(port: port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
    server.stop()
    // The loop closes the listener once woken; a copy left listening would never stop.
    let deadline = monotonicSeconds() + 30
    while HTTPServer.listeningPort(of: held) != nil && monotonicSeconds() < deadline {
      usleep(5_000)
    }
    #expect(HTTPServer.listeningPort(of: held) == nil, "the held copy still listens")
    #expect(LoopbackSocket.connect(port: port) == nil, "a client is refused, not queued")
  }

  @Test func onlyAListeningLoopbackSocketHasAListeningPort() throws {
    let listener = try HTTPServer.listen(port: 0)
    defer { close(listener) }
    let port = try #require(HTTPServer.listeningPort(of: listener))
    let client = try #require(LoopbackSocket.connect(port: port))
    defer { close(client) }
    #expect(HTTPServer.listeningPort(of: client) == nil, "connected, not listening")
    let unbound = LoopbackSocket.make()
    defer { close(unbound) }
    #expect(HTTPServer.listeningPort(of: unbound) == nil)
    #expect(HTTPServer.listeningPort(of: 1_000_000) == nil, "no such descriptor")
  }

  @Test func theWorkerGetsTheListenerAsDescriptorThreeAndNothingElseAboveTwo() throws {
    let listener = Subprocess.movedAboveInherited(try HTTPServer.listen(port: 0))
    try #require(listener > Subprocess.inheritedDescriptor)
    defer { close(listener) }
    // A descriptor not closed on exec (as a caller's lock file may be) must not reach the child.
    // Above the inherited number whatever this process has open now: the suites run in
    // parallel, so the lowest free descriptor (what open returns) may be 3 itself.
    let opened = open("/dev/null", O_RDONLY)
    try #require(opened >= 0)
    let stray = fcntl(opened, F_DUPFD, Subprocess.inheritedDescriptor + 1)
    close(opened)
    try #require(stray > Subprocess.inheritedDescriptor && stray != listener)
    defer { close(stray) }
    let socketAt3 =
      "[ -S /proc/self/fd/3 ] || exit 1; [ -e /proc/self/fd/\(stray) ] && exit 2; exit 0"
    #expect(try exitCode(of: socketAt3, inheriting: listener) == 0)
    #expect(try exitCode(of: socketAt3, inheriting: nil) == 1, "nothing given, nothing at 3")
  }
}
