import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One function's Deno process: started with the bootstrap, its output read line by line into the
/// functions' log, listening on its Unix socket once the bootstrap says so, its end noticed (and
/// its socket's file removed then).
///
/// ```swift
/// let process = try FunctionProcess.start(definition, deno: path, ...)
/// switch process.waitUntilListening(seconds: 30) {
/// case .listening: ...                      // forward calls to process.socketPath
/// case .exited, .timedOut: ...              // 503 BOOT_ERROR
/// }
/// ```
final class FunctionProcess: Sendable {
  enum Boot: Sendable, Equatable {
    case listening
    case exited(status: Int32)
    case timedOut
  }

  struct State: Sendable {
    var listening = false
    var exitStatus: Int32?
    /// V8 said the heap is exhausted (the process ends right after).
    var ranOutOfMemory = false
  }

  let name: String
  /// The Unix socket it listens on (in the runner's private folder).
  let socketPath: String
  let pid: pid_t
  /// The fingerprint of the files it was started from (`FunctionCatalog.fingerprint`).
  let fingerprint: Int
  let nonce: String
  /// The write end of the process's standard input, closed when it ends.
  let lifeline: Int32
  let state = Mutex(State())
  private let changed = DispatchSemaphore(value: 0)

  private init(
    name: String, socketPath: String, pid: pid_t, fingerprint: Int, nonce: String, lifeline: Int32
  ) {
    self.lifeline = lifeline
    self.name = name
    self.socketPath = socketPath
    self.pid = pid
    self.fingerprint = fingerprint
    self.nonce = nonce
  }

  var isRunning: Bool { state.withLock { $0.exitStatus == nil } }

  /// Starts `deno run` on the bootstrap in the function's folder, with exactly `environment`, to
  /// listen on `socketPath`; its output goes to `log` through a reader thread.
  static func start(
    _ definition: FunctionDefinition, deno: String, bootstrap: String, socketPath: String,
    environment: [String: String], memoryMiB: Int, fingerprint: Int, log: FunctionLog?
  ) throws(FunctionsFailure) -> FunctionProcess {
    // Output: the child writes, the reader thread reads. Input: the gateway holds the write
    // end, so the bootstrap sees its standard input end when the gateway does, and exits.
    var pipeEnds: [Int32] = [0, 0]
    var lifeline: [Int32] = [0, 0]
    guard makePipe(&pipeEnds) else {
      throw FunctionsFailure("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    guard makePipe(&lifeline) else {
      close(pipeEnds[0])
      close(pipeEnds[1])
      throw FunctionsFailure("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    var arguments = [
      "-C", definition.directory, deno, "run", "--no-prompt", "--allow-net", "--allow-env",
      // The socket's own path: Deno asks for write access to listen on it.
      "--allow-read", "--allow-sys", "--allow-write=/tmp," + socketPath,
      "--v8-flags=--max-old-space-size=\(memoryMiB)",
    ]
    if let importMap = definition.importMap { arguments += ["--import-map", importMap] }
    arguments.append(bootstrap)
    let nonce = UUID().uuidString.lowercased()
    var all = environment
    all["SNM_FUNCTION_ENTRY"] = URL(fileURLWithPath: definition.entrypoint).absoluteString
    all["SNM_FUNCTION_NONCE"] = nonce
    all["SNM_FUNCTION_NAME"] = definition.name
    all["SNM_FUNCTION_SOCKET"] = socketPath
    unlink(socketPath)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, lifeline[0], 0)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group, so ending it ends whatever it started.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let environ = all.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in environ { free(pointer) } }
    // `env -C` changes directory in the child (posix_spawn's chdir action is a GNU extension).
    let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, environ)
    close(pipeEnds[1])
    close(lifeline[0])
    guard status == 0 else {
      close(pipeEnds[0])
      close(lifeline[1])
      throw FunctionsFailure("cannot run \(deno): \(String(cString: strerror(status)))")
    }
    let process = FunctionProcess(
      name: definition.name, socketPath: socketPath, pid: pid, fingerprint: fingerprint,
      nonce: nonce, lifeline: lifeline[1])
    let reader = pipeEnds[0]
    Thread.detachNewThread { process.drain(reader, log: log) }
    return process
  }

  /// Copies the process's output to the log until it ends, then reaps it.
  private func drain(_ fd: Int32, log: FunctionLog?) {
    let marker = Array((FunctionBootstrap.marker + nonce).utf8)
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    func handle(_ line: ArraySlice<UInt8>) {
      if line.elementsEqual(marker) {
        state.withLock { $0.listening = true }
        changed.signal()
        return
      }
      let text = String(decoding: line, as: UTF8.self)
      if text.contains("out of memory") { state.withLock { $0.ranOutOfMemory = true } }
      log?.write(name, text)
    }
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      pending.append(contentsOf: buffer[0..<count])
      while let newline = pending.firstIndex(of: 0x0A) {
        handle(pending[..<newline])
        pending.removeFirst(newline + 1)
      }
      if pending.count > 65_536 {
        handle(pending[...])
        pending.removeAll()
      }
    }
    if !pending.isEmpty { handle(pending[...]) }
    close(fd)
    close(lifeline)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    unlink(socketPath)
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    state.withLock { $0.exitStatus = code }
    log?.write(
      name,
      "snm: process \(pid) ended (\(code >= 128 ? "signal \(code - 128)" : "exit status \(code)"))")
    changed.signal()
  }

  /// A pipe whose ends are closed in children (but where dup2 puts them).
  private static func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// Waits until the process listens, ends, or `seconds` pass.
  func waitUntilListening(seconds: Double) -> Boot {
    let deadline = DispatchTime.now() + seconds
    while true {
      let now = state.withLock { $0 }
      if now.listening { return .listening }
      if let status = now.exitStatus { return .exited(status: status) }
      if changed.wait(timeout: deadline) == .timedOut { return .timedOut }
    }
  }

  /// Waits up to `seconds` for the process to end; its state then.
  func waitForExit(seconds: Double) -> State {
    let deadline = DispatchTime.now() + seconds
    while true {
      let now = state.withLock { $0 }
      if now.exitStatus != nil { return now }
      if changed.wait(timeout: deadline) == .timedOut { return now }
    }
  }

  /// Ends the process and its group (SIGKILL: a function gets no grace, as a retired worker).
  func terminate() {
    guard isRunning else { return }
    kill(-pid, SIGKILL)
  }
}
