/// A command line that snm cannot run; printed as `snm: <message>` and a hint, exit code 2.
///
/// ```swift
/// throw UsageError("option '--format' needs a value: table|expanded|json|ndjson|csv")
/// ```
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, lowercase, no period.
  public let message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
