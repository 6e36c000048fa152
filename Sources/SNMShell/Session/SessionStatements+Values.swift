import Foundation
import SNMQuery
import SNMWire

extension SessionStatements {
  /// Runs a parsed session statement (spec §3). `resolve` turns a value as written into its text
  /// (a string, `$env.NAME`, a script variable); the default knows strings and `$env`.
  ///
  /// ```swift
  /// case .session(let statement): outcome = await family.run(statement)
  /// ```
  func run(
    _ statement: SessionStatement,
    resolve: (ValueNode) throws(SessionValueError) -> String = SessionStatements.resolveValue
  ) async -> Outcome {
    let command: SessionCommand
    do throws(SessionValueError) {
      switch statement {
      case .loginAnonymously: command = .loginAnonymously
      case .login(let email, let password):
        command = .login(email: try resolve(email), password: try password.map(resolve))
      case .signup(let email, let password, let data):
        command = .signup(
          email: try resolve(email), password: try password.map(resolve),
          data: data.flatMap(Self.constantJSON))
      case .check: command = .check
      case .show: command = .show
      case .refresh: command = .refresh
      case .token: command = .token
      case .logout(let scope): command = .logout(scope ?? .local)
      }
    } catch {
      return Outcome(fail(.usage, error.description))
    }
    return await run(command)
  }

  /// The metadata of `signup ... data`, filled in by ``fillingVariables(in:source:)`` (a word
  /// holding its JSON text).
  static func constantJSON(_ node: ValueNode) -> JSONValue? {
    guard case .word(let text) = node.value else { return nil }
    return try? JSONValue(parsing: text)
  }

  /// A string literal's text, or `$env.NAME` from the environment.
  static func resolveValue(_ node: ValueNode) throws(SessionValueError) -> String {
    switch node.value {
    case .string(let literal):
      guard let text = literal.constantText else { throw .notText(node.value.kindDescription) }
      return text
    case .variable(let reference):
      guard reference.name == "env", reference.path.count == 1,
        case .field(let name) = reference.path[0]
      else { throw .unsupportedVariable(reference.spelling) }
      guard let value = ProcessInfo.processInfo.environment[name] else {
        throw .unsetEnvironment(name)
      }
      return value
    default:
      throw .notText(node.value.kindDescription)
    }
  }
}

/// Why a session statement's email or password could not be read.
enum SessionValueError: Error, Sendable, Equatable, CustomStringConvertible {
  case notText(String)
  case unsetEnvironment(String)
  case unsupportedVariable(String)

  var description: String {
    switch self {
    case .notText(let kind): "expected a string, found \(kind)"
    case .unsetEnvironment(let name): "the environment variable \(name) is not set ($env.\(name))"
    case .unsupportedVariable(let spelling):
      "\(spelling) cannot be used here; use a string or $env.NAME"
    }
  }
}

extension SessionStatements {
  /// `session` with its e-mail and password filled in from the script's variables
  /// (`login email $email_a password $env.PW`); throws the failure after printing why one
  /// cannot be.
  func fillingVariables(in session: SessionStatement, source: Source)
    async
    throws(StatementFailure) -> SessionStatement
  {
    func fill(_ node: ValueNode, _ scope: VariableScope) throws(Diagnostic) -> ValueNode {
      guard case .string(let literal) = node.value, literal.constantText != nil else {
        return ValueNode(
          .string(StringLiteral(try ValueEvaluator.text(node, in: scope))), range: node.range)
      }
      return node
    }
    let scope = environment.variables
    do throws(Diagnostic) {
      switch session {
      case .login(let email, let password):
        let secret: ValueNode? = if let password { try fill(password, scope) } else { nil }
        return .login(email: try fill(email, scope), password: secret)
      case .signup(let email, let password, let data):
        let secret: ValueNode? = if let password { try fill(password, scope) } else { nil }
        let metadata: ValueNode? =
          if let data {
            ValueNode(
              .word(try ValueEvaluator.json(data, in: scope).serialized()), range: data.range)
          } else { nil }
        return .signup(email: try fill(email, scope), password: secret, data: metadata)
      default:
        return session
      }
    } catch {
      throw failure(error, in: source)
    }
  }
}
