import Foundation
import SNMGateway
import Synchronization

/// The functions' processes: one per function, started at its first call, kept warm, started
/// again when its files change or it ended; each call forwarded to its process.
///
/// ```swift
/// let runner = FunctionRunner(settings: settings, environment: env, log: log)
/// let response = runner.call(definition, request, target: "/hello/sub?x=1")
/// runner.stopAll()     // at shutdown
/// ```
/// Calls come on many server threads at once: a function boots once (the others wait for it),
/// then calls reach its process side by side, at most `settings.maxConcurrentCalls` of them at
/// once over all functions (``FunctionCallShare``: past it a call is answered 546 at once).
package final class FunctionRunner: Sendable {
  /// One function's place: its process and the lock its boot runs under.
  final class Slot: Sendable {
    let booting = Mutex(())
    let process = Mutex<FunctionProcess?>(nil)
  }

  let settings: FunctionsSettings
  let catalog: FunctionCatalog
  /// The environment every function gets (`SUPABASE_URL`, keys, ...), before its `.env`.
  let environment: [String: String]
  let log: FunctionLog?
  let slots = Mutex<[String: Slot]>([:])
  /// The workers calls may hold at once, all functions together.
  let share: FunctionCallShare
  /// Where the functions' Unix sockets are, made at the first boot (a project that serves no
  /// function makes none): nil before.
  let sockets = Mutex<String?>(nil)

  package init(settings: FunctionsSettings, environment: [String: String]) {
    self.settings = settings
    self.catalog = FunctionCatalog(
      folder: settings.folder, configFile: settings.configFile, entries: settings.entries)
    self.environment = environment
    try? FileManager.default.createDirectory(
      atPath: settings.runtimeDirectory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    self.log = FunctionLog(path: settings.logFile)
    share = FunctionCallShare(limit: settings.maxConcurrentCalls)
  }

  /// The sockets' folder, made now if not yet: `run/` in the runtime folder, mode 0700, or,
  /// when a socket's path there would not fit an address (107 bytes) or has a comma (Deno's
  /// `--allow-write` is a comma-separated list), a private folder (`mkdtemp`, 0700) in
  /// `$XDG_RUNTIME_DIR`, else `/tmp`. Nil when none could be made.
  func socketDirectory() -> String? {
    sockets.withLock { made -> String? in
      if let made { return made }
      made = Self.makeSocketDirectory(
        in: settings.runtimeDirectory,
        runtime: ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"])
      return made
    }
  }

  /// Bytes a socket's name adds to its folder's path (`/` + 8 characters + `.sock`), and the
  /// most a socket's path may have (`sun_path` less its NUL, with room to spare).
  static let socketNameBytes = 14
  static let socketPathBytes = 100

  static func makeSocketDirectory(in runtimeDirectory: String, runtime: String?) -> String? {
    let own = runtimeDirectory + "/run"
    if own.utf8.count + socketNameBytes <= socketPathBytes, !own.contains(",") {
      return makePrivateDirectory(own) ? own : nil
    }
    for parent in [runtime, "/tmp"].compactMap({ $0 })
    where parent.hasPrefix("/") && !parent.contains(",") {
      var template = Array((parent + "/snm-functions-XXXXXX").utf8CString)
      let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
        guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
        return String(cString: base)
      }
      if let made, made.utf8.count + socketNameBytes <= socketPathBytes { return made }
      if let made { try? FileManager.default.removeItem(atPath: made) }
    }
    return nil
  }

  /// `path` as a folder only this user may open (made 0700, or one of this user's made so).
  static func makePrivateDirectory(_ path: String) -> Bool {
    if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
      status.st_uid == geteuid()
    else { return false }
    return status.st_mode & 0o777 == 0o700 || chmod(path, 0o700) == 0
  }

  func slot(_ name: String) -> Slot {
    slots.withLock { slots in
      if let slot = slots[name] { return slot }
      let slot = Slot()
      slots[name] = slot
      return slot
    }
  }

  /// The answer to one call of `definition` (`target`: the path the function sees, with the query).
  func call(_ definition: FunctionDefinition, _ request: HTTPRequest, target: String)
    -> HTTPResponse
  {
    let place: FunctionCallShare.Place
    switch share.enter() {
    case .admitted(let admitted): place = admitted
    case .refused(let first):
      if first {
        log?.write(
          definition.name,
          "snm: call refused (546): \(share.limit) calls of the project's functions are running"
            + " (their share of the gateway's workers)")
      }
      return FunctionErrorResponse.workerLimit
    }
    let response = forward(definition, request, target: target, place: place)
    if response.bodyStream == nil { place.leave() }
    return response
  }

  /// `call`, holding `place` (given back by the caller, or by the streamed body when it ends).
  func forward(
    _ definition: FunctionDefinition, _ request: HTTPRequest, target: String,
    place: FunctionCallShare.Place
  ) -> HTTPResponse {
    let slot = slot(definition.name)
    guard let process = ready(definition, slot: slot) else {
      return FunctionErrorResponse.bootError
    }
    var call = FunctionCall(
      socketPath: process.socketPath, deadline: monotonicSeconds() + settings.wallClockSeconds)
    call.streamEnded = { place.leave() }
    switch call.send(request, target: target) {
    case .answered(let response):
      if response.status == 500,
        response.headers[FunctionBootstrap.errorHeader] == process.nonce
      {
        return FunctionErrorResponse.workerError
      }
      return response
    case .late:
      log?.write(
        definition.name,
        "snm: no answer within the wall clock limit (\(Int(settings.wallClockSeconds)) s): process ended"
      )
      process.terminate()
      return FunctionErrorResponse.workerLimit
    case .dropped:
      // The process died under the call: out of memory is a limit, anything else an error.
      let state = process.waitForExit(seconds: 5)
      if state.ranOutOfMemory {
        return FunctionErrorResponse.workerLimit
      }
      return FunctionErrorResponse.workerError
    }
  }

  /// The function's running process, started (or started again) when needed; nil when it did
  /// not boot.
  func ready(_ definition: FunctionDefinition, slot: Slot) -> FunctionProcess? {
    slot.booting.withLock { _ -> FunctionProcess? in
      let fingerprint = catalog.fingerprint(of: definition)
      if let current = slot.process.withLock({ $0 }) {
        if current.isRunning, current.fingerprint == fingerprint { return current }
        if current.isRunning {
          log?.write(definition.name, "snm: files changed: starting it again")
          current.terminate()
        }
      }
      let deno: String
      switch settings.deno {
      case .success(let path): deno = path
      case .failure(let missing):
        log?.write(definition.name, "snm: failed to boot: \(missing.message)")
        return nil
      }
      var environment = catalog.environmentFile()
      environment.merge(self.environment) { $1 }
      guard let socketDirectory = socketDirectory() else {
        log?.write(
          definition.name,
          "snm: failed to boot: cannot make a private folder for its socket in "
            + settings.runtimeDirectory + "/run or /tmp")
        return nil
      }
      let socketPath = socketDirectory + "/" + UUID().uuidString.prefix(8).lowercased() + ".sock"
      let process: FunctionProcess
      do {
        process = try FunctionProcess.start(
          definition, deno: deno, bootstrap: bootstrapPath(), socketPath: socketPath,
          environment: environment,
          memoryMiB: settings.memoryMiB, fingerprint: fingerprint, log: log)
      } catch {
        let reason = (error as? FunctionsFailure)?.message ?? "\(error)"
        log?.write(definition.name, "snm: failed to boot: \(reason)")
        return nil
      }
      slot.process.withLock { $0 = process }
      switch process.waitUntilListening(seconds: settings.bootSeconds) {
      case .listening:
        log?.write(definition.name, "snm: serving on \(process.socketPath) (pid \(process.pid))")
        return process
      case .exited:
        return nil
      case .timedOut:
        log?.write(
          definition.name,
          "snm: failed to boot: not listening after \(Int(settings.bootSeconds)) s"
            + " (an import still being fetched, or a top-level await that never ends)")
        process.terminate()
        return nil
      }
    }
  }

  /// The bootstrap module, written to the runtime folder when missing or different.
  func bootstrapPath() -> String {
    let path = settings.runtimeDirectory + "/" + FunctionBootstrap.fileName
    let text = Array(FunctionBootstrap.source.utf8)
    if FileManager.default.contents(atPath: path).map(Array.init) != text {
      _ = FileManager.default.createFile(
        atPath: path, contents: Data(text), attributes: [.posixPermissions: 0o600])
    }
    return path
  }

  /// Ends every function's process (the gateway is stopping), and removes the sockets' folder.
  package func stopAll() {
    let all = slots.withLock { Array($0.values) }
    let processes = all.compactMap { slot in slot.process.withLock { $0 } }
    for process in processes { process.terminate() }
    for process in processes { _ = process.waitForExit(seconds: 2) }
    let made = sockets.withLock { made in
      defer { made = nil }
      return made
    }
    if let made { try? FileManager.default.removeItem(atPath: made) }
  }
}
