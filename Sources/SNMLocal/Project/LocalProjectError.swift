/// Why a local-project command failed; `description` is the one line snm prints.
public struct LocalProjectError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The failure's area, which picks the exit code.
  public enum Kind: Sendable, Equatable {
    /// Bad flags or values (exit 2).
    case usage
    /// Postgres or the gateway could not be set up, started or reached (exit 3).
    case unavailable
    /// Anything else that went wrong on this machine (exit 1).
    case failed
  }

  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }

  /// The process exit code for this error (ARCHITECTURE.md).
  public var exitCode: Int32 {
    switch kind {
    case .usage: 2
    case .unavailable: 3
    case .failed: 1
    }
  }
}
