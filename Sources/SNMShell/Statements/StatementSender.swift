import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import Synchronization

/// Sends a statement's requests so that a signal stops them: Ctrl-C (SIGINT) or SIGTERM cancels
/// the request in flight and the statement returns `.interrupted` at once. Handed to a family in
/// its ``StatementEnvironment``.
///
/// ```swift
/// switch await environment.sender.send(compiled) {
/// case .done(let response): ...
/// case .failed(let error): ...
/// case .interrupted(let signal): return .interrupted(signal)
/// }
/// ```
struct StatementSender: Sendable {
  /// How a cancellable request ended.
  enum Transfer<Value: Sendable>: Sendable {
    case done(Value)
    case failed(any Error)
    /// SIGINT (Ctrl-C) or SIGTERM arrived first; the request was cancelled.
    case interrupted(Int32)
  }

  /// Where SIGINT and SIGTERM come from.
  let signals: InterruptSignals
  /// The project's session: its token goes with each request, refreshed once if it expired.
  let sessions: SessionManager
  /// The signal that stopped the scripts, if one has (a script's requests are cancelled by it).
  let interruption: @Sendable () -> Int32?

  /// Sends the compiled request (built once, by the compiler) in a task of its own; a signal
  /// cancels it and returns at once, whether or not the transfer has stopped yet.
  /// The watcher is in place before the request starts, so a signal can never find the request
  /// under way and nobody watching it.
  ///
  /// Inside ``StatementExecutor/stoppingOnSignals(_:)`` (`ExchangeThread.mayBlockCaller`: a
  /// script) and signed out the request runs in the calling task instead, with no hand-off to a
  /// task and back: the signal that stops the script cancels that task, which closes the
  /// connection at once, and `interruption` names the signal. Signed in, a request may wait for
  /// the session's refresh (a task of the session's, which a signal does not stop), so it keeps a
  /// task of its own, as do the script's `defer` statements once a signal came.
  func send(_ compiled: StatementCompiler.Compiled) async -> Transfer<SupabaseDBResponse> {
    let (builder, request) = (compiled.builder, compiled.request)
    if ExchangeThread.mayBlockCaller && !Task.isCancelled, await sessions.currentSession == nil {
      do {
        let response = try await withSession { try await builder.request(request) }
        return interruption().map { .interrupted($0) } ?? .done(response)
      } catch {
        return interruption().map { .interrupted($0) } ?? .failed(error)
      }
    }
    return await cancellable { try await builder.request(request) }
  }

  /// Runs `request` (with the session's token, refreshed once if it expired; as it is when not
  /// `refreshing`: a sign-in) in a task of its own; a signal cancels it and returns at once,
  /// whether or not the transfer has stopped yet.
  func cancellable<Value: Sendable>(
    refreshing: Bool = true, _ request: @escaping @Sendable () async throws -> Value
  ) async -> Transfer<Value> {
    let once = ResumeOnce<Transfer<Value>>()
    let transfer = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))
    return await signals.watch(onSignal: { signal in
      // Hand the prompt back first; stopping the transfer may take the network thread a moment.
      once.resume(.interrupted(signal))
      transfer.withLock { transfer in
        transfer.cancelled = true
        transfer.task?.cancel()
      }
    }) {
      let task = Task { [self] in
        do {
          let response = try await refreshing ? withSession { try await request() } : request()
          once.resume(.done(response))
        } catch {
          once.resume(.failed(error))
        }
      }
      transfer.withLock { transfer in
        transfer.task = task
        if transfer.cancelled { task.cancel() }
      }
      return await withCheckedContinuation { once.attach($0) }
    }
  }

  /// Runs `request` (which takes its token from the session); when the server refuses it because
  /// the JWT expired, refreshes the session and runs it once more.
  ///
  /// - Throws: what `request` throws, or `SupabaseSessionError` when the session cannot be
  ///   refreshed (an authentication failure, exit code 3).
  func withSession<T: Sendable>(_ request: @Sendable () async throws -> T) async throws -> T {
    try await sessions.retryingAfterRefresh(request)
  }
}
