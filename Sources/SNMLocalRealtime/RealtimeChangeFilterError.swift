/// Why a postgres_changes filter cannot be read.
struct RealtimeChangeFilterError: Error, Sendable, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}
