import Foundation

/// A C signal handler put in place by sigaction(2), its mask empty: how every handler of snm's is
/// installed (``InterruptSignals``: SIGINT, SIGTERM; ``JobStop``: SIGCONT; ``WindowResize``:
/// SIGWINCH; `WriteStop`: SIGURG).
///
/// ```swift
/// let previous = SignalAction.install(SIGCONT, restarting: false, handler: noteContinued)
/// defer { SignalAction.restore(SIGCONT, previous) }
/// ```
/// A handler may touch only globals (atomics, a pipe's end) and async-signal-safe calls.
enum SignalAction {
  /// Puts `handler` in place for `signal` and returns the action it replaces. `restarting`
  /// (`SA_RESTART`): a system call it interrupts goes on; without it the call fails with `EINTR`
  /// (what a handler meant to end a blocked call is for).
  @discardableResult
  static func install(
    _ signal: Int32, restarting: Bool, handler: @convention(c) (Int32) -> Void
  ) -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    action.sa_flags = restarting ? SA_RESTART : 0
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    _ = sigaction(signal, &action, &previous)
    return previous
  }

  /// Puts back `action`, as ``install(_:restarting:handler:)`` returned it.
  static func restore(_ signal: Int32, _ action: sigaction) {
    var action = action
    _ = sigaction(signal, &action, nil)
  }
}
