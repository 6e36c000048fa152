/// The exit codes of `snm`, as `snm --help` and docs/ARCHITECTURE.md list them.
public enum ExitCode: Int32, Sendable {
  /// Everything ran.
  case success = 0
  /// A statement failed at the server, or an expectation failed.
  case failure = 1
  /// A usage or parse error: nothing was sent.
  case usage = 2
  /// The project could not be reached, or authentication failed.
  case unreachable = 3
  /// The project answered, but its relay could not reach the Edge Function called (hosted's
  /// `x-relay-error: true`; functions-js's `FunctionsRelayError`).
  case relay = 4
  /// Interrupted by SIGINT (Ctrl-C) outside the prompt.
  case interrupted = 130
  /// Terminated by SIGTERM.
  case terminated = 143
}
