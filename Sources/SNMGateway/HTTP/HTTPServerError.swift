/// The server could not start listening.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The call that failed (`bind`, `listen`, ...).
  public var operation: String
  /// `errno` after the failed call.
  public var code: Int32
  public var port: Int

  public var description: String {
    if operation == "bind", code == 98 {
      return "port \(port) is already in use on 127.0.0.1"
    }
    return "could not \(operation) on 127.0.0.1:\(port) (errno \(code))"
  }
}
