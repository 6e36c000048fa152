import Foundation
import SNMGateway
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// The pid in `gateway.pid` when it names a running `snm local serve`.
  func gatewayPID(_ state: ProjectState) -> pid_t? {
    guard let data = FileManager.default.contents(atPath: state.pidFile),
      let pid = pid_t(
        String(decoding: data, as: UTF8.self).trimmingSpaces.trimmingCharacters(in: .newlines))
    else { return nil }
    let command = Subprocess.commandLine(pid)
    guard command.contains("local") && command.contains("serve") else { return nil }
    return pid
  }

  /// Starts `snm local serve` detached and waits until it answers. Throws with the log's tail.
  func launchGateway(_ state: ProjectState) throws(LocalProjectError) {
    let executable = Self.currentExecutable()
    let pid = try Subprocess.spawnDetached(executable, state.serveArguments, log: state.logFile)
    try? Data("\(pid)\n".utf8).write(to: URL(fileURLWithPath: state.pidFile), options: .atomic)
    let keys = try state.keys()
    let deadline = monotonicSeconds() + 20
    while monotonicSeconds() < deadline {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        try? FileManager.default.removeItem(atPath: state.pidFile)
        throw LocalProjectError(
          .unavailable, "the gateway did not start: " + logTail(state) + " (log: \(state.logFile))")
      }
      if HTTPProbe.status(port: state.port, path: "/auth/v1/health", apiKey: keys.anonKey) == 200 {
        return
      }
      usleep(20_000)
    }
    kill(pid, SIGTERM)
    throw LocalProjectError(
      .unavailable, "the gateway did not answer within 20 s (log: \(state.logFile))")
  }

  /// Sends SIGTERM to the gateway and waits; SIGKILL after 5 s. True if one was running.
  func stopGateway(_ state: ProjectState) -> Bool {
    defer { try? FileManager.default.removeItem(atPath: state.pidFile) }
    guard let pid = gatewayPID(state), Subprocess.isAlive(pid) else { return false }
    kill(pid, SIGTERM)
    for _ in 0..<250 where Subprocess.isAlive(pid) { usleep(20_000) }
    if Subprocess.isAlive(pid) {
      kill(pid, SIGKILL)
      for _ in 0..<100 where Subprocess.isAlive(pid) { usleep(20_000) }
    }
    return true
  }

  func logTail(_ state: ProjectState) -> String {
    let text = (try? String(contentsOfFile: state.logFile, encoding: .utf8)) ?? ""
    return Cluster.lastLines(text, count: 3)
  }

  /// The running snm binary's path (/proc/self/exe), falling back to argv[0].
  static func currentExecutable() -> String {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return path
    }
    return CommandLine.arguments.first ?? "snm"
  }
}
