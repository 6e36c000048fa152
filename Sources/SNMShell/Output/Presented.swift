/// How printing a result went: whether it was printed, and how long the pager held it (the
/// reader's time, which `\timing` leaves out of the rendering time).
struct Presented: Sendable, Equatable {
  /// Why the rows could not be printed (reported); nil when they were.
  var failure: StatementFailure?
  /// How long the pager ran; zero when the rows did not go through one.
  var paged: Duration = .zero

  /// Whether the rows were printed.
  var rendered: Bool { failure == nil }
}
