import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

extension Shell {
  /// Runs the script file at `path` (relative to the working directory): checks it and every file
  /// it runs first (nothing is sent when anything is wrong), then runs it.
  ///
  /// ```swift
  /// let code = await shell.run(file: "smoke/pair.snm")
  /// ```
  /// `-` reads the script from standard input (to its end) and runs it as `stdin`.
  public func run(file path: String) async -> ExitCode {
    if path == "-" {
      let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      _ = await execute(text, source: "stdin", complete: true)
      return state.withLock { $0.failure ?? .success }
    }
    let loader = script.withLock { $0.loader }
    let parsed: ParsedScript
    do {
      parsed = try loader.load(path)
    } catch {
      let text = "snm: \(error.description)\n"
      baseErrors.write(text)
      baseErrors.flush()
      let failure = ScriptFailure(
        kind: .error, location: path, statement: "", message: error.description, text: text)
      script.withLock { $0.failures.append(failure) }
      fail(.usage)
      return .usage
    }
    script.withLock { $0.files.insert(path) }
    let check = ScriptCheck.check(
      parsed, file: path, variables: Set(variableNames()), loader: loader)
    guard !check.hasErrors else {
      reportCheckErrors(check)
      return .usage
    }
    script.withLock { $0.files.formUnion(check.findings.map(\.source.fileName)) }
    _ = await runStatements(check.script.statements, in: check.script.source, complete: true)
    return state.withLock { $0.failure ?? .success }
  }

  /// Prints every diagnostic of `check` and records the script's failure (exit code 2).
  func reportCheckErrors(_ check: ScriptCheck) {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
    let text = check.rendered(colored: colour)
    baseErrors.write(text)
    baseErrors.flush()
    if let first = check.firstError {
      let failure = ScriptFailure(
        kind: .parse, location: first.location, statement: "", message: first.message,
        text: check.rendered(colored: false))
      script.withLock { $0.failures.append(failure) }
    }
    fail(.usage)
  }

  /// `let name = value` or `let name = <query or rpc>` (which prints nothing).
  func runLet(_ binding: LetStatement, statement: Statement, in source: Source) async
    -> StatementResult
  {
    let value: JSONValue
    let outcome: StatementOutcome?
    switch binding.value {
    case .value(let node):
      do {
        value = try ValueEvaluator.json(node, in: await variableScope())
        outcome = nil
      } catch {
        return report(error, in: source)
      }
    case .statement(let inner) where StorageCompiler.storageStatement(inner) != nil:
      switch await performStorage(inner, in: source) {
      case .answered(let result, let response):
        value = result
        outcome = .answered(value: result, status: response?.status)
      case .stopped(let result):
        return result
      }
    case .statement:
      guard let compiled = await compile(statement, in: source) else { return .failed(.usage) }
      switch await send(compiled.builder) {
      case .done(let response):
        value = response.value
        outcome = .answered(response)
      case .failed(let error):
        return .failed(requestFailure(error))
      case .interrupted(let signal):
        return .interrupted(signal)
      }
    }
    variables.withLock { $0[binding.name.text] = value }
    return .succeeded(outcome)
  }

  /// `expect ...`: checks the last result; a failure says what was expected and what was found.
  func runExpect(_ expect: ExpectStatement, in source: Source) async -> StatementResult {
    let (last, previous) = script.withLock { ($0.last, $0.previous) }
    let check = ExpectationCheck(statement: expect, last: last, previous: previous)
    do {
      switch try check.evaluate(in: await variableScope()) {
      case .held:
        script.withLock { $0.expectations += 1 }
        return .succeeded(nil)
      case .failed(let expected, let found):
        return .failed(.expectation(expected: expected, found: found))
      }
    } catch {
      return report(error, in: source)
    }
  }

  /// `echo value`: prints a string with its variables filled in, or a value as JSON.
  func runEcho(_ echo: EchoStatement, in source: Source) async -> StatementResult {
    do {
      // A variable may hold what a server sent: at a terminal its control characters are shown
      // as escapes; to a file or pipe the text is written as it is.
      let text = try ValueEvaluator.text(echo.value, in: await variableScope())
      emit(output.isTerminal ? VisibleText.escaped(text, keepingNewlines: true) : text)
      return .succeeded(nil)
    } catch {
      return report(error, in: source)
    }
  }

  /// `run file` (also `\i file`): runs another script with the same variables and session. The
  /// path is relative to the file the `run` is in (to the working directory from `-c`, standard
  /// input and the prompt).
  func runInclude(_ run: RunStatement, in source: Source) async -> StatementResult {
    let (loader, isFile, chain) = script.withLock {
      ($0.loader, $0.files.contains(source.fileName), $0.running.map(\.source.fileName))
    }
    let target = ScriptLoader.resolve(run.path, from: isFile ? source.fileName : nil)
    let identity = ScriptLoader.identity(of: target)
    let files = chain.filter { name in script.withLock { $0.files.contains(name) } }
    if files.contains(where: { ScriptLoader.identity(of: $0) == identity }) {
      return report(Diagnostic(.runCycle(files + [target]), at: run.pathRange), in: source)
    }
    let included: ParsedScript
    do {
      included = try loader.load(target)
    } catch {
      return report(Diagnostic(.runTarget(error), at: run.pathRange), in: source)
    }
    let check = ScriptCheck.check(
      included, file: target, variables: Set(variableNames()), loader: loader)
    guard !check.hasErrors else {
      let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
      errors.write(check.rendered(colored: colour))
      errors.flush()
      return .failed(.usage)
    }
    script.withLock { $0.files.formUnion(check.findings.map(\.source.fileName) + [target]) }
    switch await runStatements(check.script.statements, in: check.script.source, complete: true) {
    case .succeeded: return .succeeded(nil)
    case .failed: return .failed(.reported)
    case .interrupted(let signal): return .interrupted(signal)
    }
  }

  /// Prints `diagnostic` (a variable that cannot be filled in, a bad pattern); the statement
  /// fails with exit code 2.
  func report(_ diagnostic: Diagnostic, in source: Source) -> StatementResult {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
    errors.write(DiagnosticRenderer(colored: colour).render(diagnostic, in: source))
    errors.flush()
    return .failed(.usage)
  }
}

extension Shell {
  /// `session` with its e-mail and password filled in from the script's variables
  /// (`login email $email_a password $env.PW`); nil after printing why one cannot be.
  func fillingVariables(in session: SessionStatement, source: Source) async -> SessionStatement? {
    func fill(_ node: ValueNode, _ scope: VariableScope) throws(Diagnostic) -> ValueNode {
      guard case .string(let literal) = node.value, literal.constantText != nil else {
        return ValueNode(
          .string(StringLiteral(try ValueEvaluator.text(node, in: scope))), range: node.range)
      }
      return node
    }
    let scope = await variableScope()
    do throws(Diagnostic) {
      switch session {
      case .login(let email, let password):
        let secret: ValueNode? = if let password { try fill(password, scope) } else { nil }
        return .login(email: try fill(email, scope), password: secret)
      case .signup(let email, let password):
        let secret: ValueNode? = if let password { try fill(password, scope) } else { nil }
        return .signup(email: try fill(email, scope), password: secret)
      default:
        return session
      }
    } catch {
      _ = report(error, in: source)
      return nil
    }
  }
}
