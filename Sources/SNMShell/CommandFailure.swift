/// A command that could not do its work for a reason other than how it was called (a file that
/// cannot be read or written, a schema that cannot be had): the message says where and why, with
/// no usage lines (those are for ``UsageError``); `exitCode` as the command documents it.
///
/// ```swift
/// throw CommandFailure("cannot write 'types.swift': Permission denied")
/// ```
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var exitCode: ExitCode = .failure

  public init(_ message: String, exitCode: ExitCode = .failure) {
    self.message = message
    self.exitCode = exitCode
  }

  public var description: String { message }
}
