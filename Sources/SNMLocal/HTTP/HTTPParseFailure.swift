/// A request the server refuses: the status to answer and a message saying why.
struct HTTPParseFailure: Error, Sendable, Equatable {
  var status: Int
  var message: String

  static func bad(_ message: String) -> HTTPParseFailure {
    HTTPParseFailure(status: 400, message: message)
  }
}
