/// Why the runner could not do something (start a process, reach it); logged, never sent to the
/// caller as text (the caller gets the hosted error shape).
struct FunctionsFailure: Error, Sendable, Equatable {
  var message: String

  init(_ message: String) { self.message = message }
}
