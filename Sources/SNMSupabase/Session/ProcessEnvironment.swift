import Foundation

/// The process's environment, read once. Foundation's `ProcessInfo.processInfo.environment` builds
/// a new dictionary at every read (about 85k instructions for a dozen variables, and it was read
/// ten times before the prompt); snm never changes its own environment.
///
/// ```swift
/// let home = ProcessEnvironment.current["HOME"]
/// ```
public enum ProcessEnvironment {
  /// The variables as they were at the first read.
  public static let current: [String: String] = ProcessInfo.processInfo.environment
}
