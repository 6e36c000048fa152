/// Which thread a transport blocks on for a request's exchange.
///
/// ```swift
/// let code = await ExchangeThread.$mayBlockCaller.withValue(true) { await runScript() }
/// ```
/// By default the plain transport writes the request and reads the answer on a thread of its own
/// and hands the answer back: the calling task's thread stays free for the other tasks of the
/// process (the spinner, `snm test --jobs`). A task that waits for each answer before doing
/// anything else (a script run by `snm FILE`, `-c` or a pipe) may say so with
/// ``mayBlockCaller``: the exchange then runs on the caller's own thread, two thread hand-offs
/// fewer per request (a wake-up and a sleep each). Cancelling the task still closes the
/// connection at once.
public enum ExchangeThread {
  /// Whether the plain transport may block the calling task's thread for the exchange. Tasks
  /// started inside inherit it.
  @TaskLocal public static var mayBlockCaller = false
}
