/// Stops the fuzz target with `message` when `condition` is false, in every build mode (the
/// targets are built with -O, where `precondition` drops its message), so libFuzzer saves the
/// input and the log says what broke.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}
