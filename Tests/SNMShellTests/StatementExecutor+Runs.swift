@testable import SNMShell

/// How the tests run statements on a rig's executor: each call a fresh run of its own.
extension StatementExecutor {
  /// `text` run by a new ``ScriptRunner``, as `-c` runs it; its exit code.
  func run(text: String, name: String) async -> ExitCode {
    var runner = ScriptRunner(executor: self)
    return await runner.run(text: text, name: name)
  }

  /// A new ``PromptLoop`` over `reader`, to the end of its input; its exit code.
  func runPrompt(reader: any LineReader) async -> ExitCode {
    var loop = PromptLoop(executor: self, reader: reader)
    return await loop.run()
  }

  /// What a ``PromptLoop`` on this executor shows as its prompt now.
  func promptText(continuing: Bool) -> String {
    PromptLoop(executor: self, reader: PlainLineReader()).promptText(continuing: continuing)
  }
}
