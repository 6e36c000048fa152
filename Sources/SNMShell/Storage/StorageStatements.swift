import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// The Storage statements (`storage ...`: buckets, objects, uploads and downloads, signed URLs).
/// A value for one statement: it compiles the statement against the environment's Storage manager
/// (the service key `as service`), sends its request (Ctrl-C cancels it), prints the result in the
/// current format and returns it.
///
/// ```swift
/// let result = await StorageStatements(environment: environment, output: output)
///   .run(statement, in: source, directory: "smoke")
/// ```
struct StorageStatements: RequestFamily {
  let environment: StatementEnvironment
  let output: StatementOutput

  /// Compiles a Storage statement; prints the diagnostic and throws the failure when it cannot
  /// be sent.
  func compile(_ statement: Statement, in source: Source, directory: String?)
    async
    throws(StatementFailure) -> StorageCompiler.Compiled
  {
    do {
      return try StorageCompiler(
        manager: environment.storageManager, scope: environment.variables,
        baseDirectory: directory
      ).compile(statement)
    } catch {
      throw failure(error, in: source)
    }
  }

  /// How a Storage statement's request ended: its result as a value (for `let`) and the answer,
  /// or what stopped it.
  enum Answer {
    case answered(JSONValue, SupabaseStorageResponse?)
    case stopped(StatementResult)
  }

  /// Sends a Storage statement's request (Ctrl-C cancels it); a failure is printed.
  func perform(_ statement: Statement, in source: Source, directory: String?) async -> Answer {
    let compiled: StorageCompiler.Compiled
    do { compiled = try await compile(statement, in: source, directory: directory) } catch {
      return .stopped(.failed(error))
    }
    switch compiled {
    case .url(let url):
      return .answered(.object(JSONObject([("publicURL", .string(url))])), nil)
    case .request(let builder, _):
      let spinner = Spinner.start(
        label: "waiting for \(environment.project.name)", enabled: environment.interactive)
      let outcome = await environment.sender.cancellable { try await builder.request() }
      spinner.stop()
      switch outcome {
      case .done(let response):
        return .answered(StorageResult.value(of: response), response)
      case .failed(let error):
        return .stopped(.failed(requestFailure(error)))
      case .interrupted(let signal):
        return .stopped(.interrupted(signal))
      }
    }
  }

  /// `storage ...`: the request, then its result in the current format.
  func run(_ statement: Statement, in source: Source, directory: String?) async
    -> StatementResult
  {
    switch await perform(statement, in: source, directory: directory) {
    case .stopped(let result):
      return result
    case .answered(let value, let response):
      if let response { environment.catalog.noteStorage(response) }
      let outcome = StatementOutcome.answered(value: value, status: response?.status)
      if var failure = await show(value, response: response) {
        failure.outcome = outcome
        return .failed(failure)
      }
      return .succeeded(outcome)
    }
  }

  /// A Storage result: listings as rows; a URL, a saved file or a write as one line at the table
  /// formats; the value itself as JSON.
  func show(_ value: JSONValue, response: SupabaseStorageResponse?) async -> StatementFailure? {
    let format = settings.format
    let lineFormats = format == .table || format == .expanded
    if let line = StorageResult.line(for: value, response: response), lineFormats {
      // Keys, paths and URLs the server answered: shown with control characters escaped.
      emit(VisibleText.escaped(line))
      return nil
    }
    if let response, case .download = response.request.operation, response.savedFile == nil {
      if let text = StorageResult.text(of: response), lineFormats || format == .csv {
        // A text's invisible format characters shown as escapes where a person reads it (the
        // table formats, csv at a terminal); csv to a file or pipe keeps the file's bytes.
        emitRaw(lineFormats || output.results.isTerminal ? VisibleText.lines(text) : text)
        return nil
      }
      if lineFormats {
        emit(StorageResult.binaryNote(response))
        return nil
      }
    }
    return await render(value, defaultColumn: "value")
  }
}
