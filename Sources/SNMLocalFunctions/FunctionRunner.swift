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
/// then calls reach its process side by side.
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
  /// Where the functions' Unix sockets are: a folder of `/tmp` (a socket's path must be short)
  /// that only the project's user may open (mode 0700); nil when it could not be made.
  let socketDirectory: String?

  package init(settings: FunctionsSettings, environment: [String: String]) {
    self.settings = settings
    self.catalog = FunctionCatalog(
      folder: settings.folder, configFile: settings.configFile, entries: settings.entries)
    self.environment = environment
    try? FileManager.default.createDirectory(
      atPath: settings.runtimeDirectory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    self.log = FunctionLog(path: settings.logFile)
    socketDirectory = Self.makeSocketDirectory()
  }

  /// A new folder `/tmp/snm-functions-XXXXXX`, mode 0700 (`mkdtemp`).
  static func makeSocketDirectory() -> String? {
    var template = Array("/tmp/snm-functions-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
      return String(cString: base)
    }
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
    let slot = slot(definition.name)
    guard let process = ready(definition, slot: slot) else {
      return FunctionErrorResponse.bootError
    }
    let call = FunctionCall(
      socketPath: process.socketPath, deadline: monotonicSeconds() + settings.wallClockSeconds)
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
      guard let socketDirectory else {
        log?.write(
          definition.name,
          "snm: failed to boot: cannot make a private folder in /tmp for its socket")
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
    if let socketDirectory { try? FileManager.default.removeItem(atPath: socketDirectory) }
  }
}
