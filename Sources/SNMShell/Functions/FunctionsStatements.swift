import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// `invoke` and `request` (Edge Functions and raw HTTP under the project's URL): a value for one
/// statement that compiles it (``FunctionsCompiler``), sends it with the project's key and the
/// session's token (the service key `as service`; Ctrl-C cancels it), prints the answer by its
/// media type and returns it.
///
/// ```swift
/// let result = await FunctionsStatements(environment: environment, output: output)
///   .run(statement, in: source, directory: "smoke")
/// ```
/// Three failures are told apart, as the official clients do: the relay's (`x-relay-error:
/// true`: the function was not reached; exit code 4), the function's non-2xx answer (its status
/// and body; exit code 1), and no answer at all (exit code 3), as functions-js's
/// `FunctionsRelayError`, `FunctionsHttpError` and `FunctionsFetchError`.
struct FunctionsStatements: RequestFamily {
  let environment: StatementEnvironment
  let output: StatementOutput

  /// Compiles the statement; prints the diagnostic and throws the failure when it cannot be sent.
  func compile(_ statement: Statement, in source: Source, directory: String?)
    throws(StatementFailure) -> FunctionsRequest
  {
    do {
      return try FunctionsCompiler(
        projectURL: environment.project.url.absoluteString, scope: environment.variables,
        baseDirectory: directory
      ).compile(statement)
    } catch {
      throw failure(error, in: source)
    }
  }

  /// How the request ended: the answer, or what stopped it (printed).
  enum Answer {
    case answered(FunctionsAnswer)
    case stopped(StatementResult)
  }

  /// Sends the statement's request (Ctrl-C cancels it); a failure is printed.
  func perform(_ statement: Statement, in source: Source, directory: String?) async -> Answer {
    let request: FunctionsRequest
    do { request = try compile(statement, in: source, directory: directory) } catch {
      return .stopped(.failed(error))
    }
    let connection = environment.connection
    let asService = connection.asService
    let provider =
      asService ? (connection.serviceProvider ?? connection.provider) : connection.provider
    let token = asService ? nil : environment.accessTokenProvider
    let endpoint = request.endpoint
    let spinner = Spinner.start(
      label: "waiting for \(environment.project.name)", enabled: environment.interactive)
    let started = ContinuousClock.now
    let outcome = await environment.sender.cancellable {
      try await provider.send(endpoint: endpoint, accessToken: try await token?())
    }
    spinner.stop()
    let elapsed = started.duration(to: .now)
    let milliseconds =
      Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    switch outcome {
    case .done(let response):
      let answer = FunctionsAnswer(response, milliseconds: milliseconds)
      if answer.isRelayError { return .stopped(.failed(relayFailure(answer, request))) }
      return .answered(answer)
    case .failed(SNMNetworkError.http(let server)):
      let answer = FunctionsAnswer(server.response, milliseconds: milliseconds)
      if answer.isRelayError { return .stopped(.failed(relayFailure(answer, request))) }
      return .stopped(.failed(httpFailure(answer, request)))
    case .failed(let error as SNMNetworkError):
      switch error {
      case .localFile, .invalidURL, .beyondLimits:
        return .stopped(.failed(requestFailure(error)))
      default:
        let text =
          "failed to send the request to \(target(request)): "
          + StoppedLocalProject.described(error, project: environment.project)
        return .stopped(
          .failed(
            failure(
              .unreachable, text,
              outcome: .failed(code: "network_error", message: error.description))))
      }
    case .failed(let error):
      return .stopped(.failed(requestFailure(error)))
    case .interrupted(let signal):
      return .stopped(.interrupted(signal))
    }
  }

  /// `invoke ...` / `request ...`: the request, then its answer by media type.
  func run(_ statement: Statement, in source: Source, directory: String?) async -> StatementResult {
    switch await perform(statement, in: source, directory: directory) {
    case .stopped(let result):
      return result
    case .answered(let answer):
      let outcome = answer.outcome
      if let file = FunctionsCompiler.functionsStatement(statement)?.outputFile {
        if var failure = write(answer, to: file, directory: directory) {
          failure.outcome = outcome
          return .failed(failure)
        }
        return .succeeded(outcome)
      }
      if var failure = await show(answer) {
        failure.outcome = outcome
        return .failed(failure)
      }
      return .succeeded(outcome)
    }
  }

  /// JSON in the current format; text as text (control characters escaped); anything else as
  /// its size and type.
  func show(_ answer: FunctionsAnswer) async -> StatementFailure? {
    switch answer.media {
    case .json(let document):
      return await render(document, defaultColumn: "value")
    case .text(let text):
      if !text.isEmpty { emit(VisibleText.escaped(text, keepingNewlines: true)) }
      return nil
    case .binary:
      emit(answer.binaryNote)
      return nil
    case .empty:
      return nil
    }
  }

  /// What the statement called, for messages: `function 'hello'` or `GET /rest/v1/...`.
  func target(_ request: FunctionsRequest) -> String {
    switch request.kind {
    case .invoke(let name): "the edge function '\(VisibleText.escaped(name))'"
    case .request: "\(request.method) \(VisibleText.escaped(request.endpoint.url))"
    }
  }

  /// The relay did not reach the function (hosted's `x-relay-error: true`).
  func relayFailure(_ answer: FunctionsAnswer, _ request: FunctionsRequest) -> StatementFailure {
    var outcome = answer.outcome
    outcome.failure = StatementOutcome.Failure(code: "relay_error", message: answer.bodyText)
    return failure(
      .relay,
      "relay error invoking \(target(request)) (\(answer.status)): "
        + VisibleText.escaped(answer.bodyText, keepingNewlines: true),
      outcome: outcome)
  }

  /// The function (or the path) answered with a status outside 2xx: the status and the body.
  func httpFailure(_ answer: FunctionsAnswer, _ request: FunctionsRequest) -> StatementFailure {
    var outcome = answer.outcome
    let code = answer.errorCode
    outcome.failure = StatementOutcome.Failure(code: code, message: answer.bodyText)
    let what =
      switch request.kind {
      case .invoke: "\(target(request)) answered \(answer.status)"
      case .request: "\(target(request)) answered \(answer.status)"
      }
    let body =
      answer.bodyText.isEmpty
      ? "" : ": " + VisibleText.escaped(answer.bodyText, keepingNewlines: true)
    return failure(.server, what + body, outcome: outcome)
  }
}
