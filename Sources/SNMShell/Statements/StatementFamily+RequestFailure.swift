import Foundation
import SNMNetwork
import SNMSupabase

extension StatementFamily {
  /// Prints why a request failed; the failure's kind says the exit code: 1 for the server saying
  /// no, 3 for a project that cannot be reached, an answer snm cannot take (not HTTP, not JSON,
  /// larger or deeper than snm takes) or a session that cannot be used, 2 for a request the
  /// builder refused. Its outcome is what `expect error` reads.
  func requestFailure(_ error: any Error) -> StatementFailure {
    let asService = environment.connection.asService
    var headline = FailureHeadline.of(error)
    if asService, headline == FailureHeadline.refusedKey {
      headline = FailureHeadline.refusedServiceKey
    }
    let outcome = StatementOutcome.failed(error)
    let project = environment.project
    switch error {
    case SNMNetworkError.localFile(let failure):
      return self.failure(.server, failure.description, outcome: outcome, headline: headline)
    case SNMNetworkError.http(let failure):
      let role = environment.signedIn
      let text = ServerErrorReport(
        role: role ?? project.keyRole, signedIn: role != nil, local: project.isLocal,
        asService: asService
      ).render(failure)
      output.errors.write(text)
      output.errors.flush()
      let kind: StatementFailure.Kind =
        failure.status == 401 && failure.code == nil ? .unreachable : .server
      return StatementFailure(kind, saying: text, outcome: outcome, headline: headline)
    case let failure as SNMNetworkError:
      return self.failure(
        .unreachable, StoppedLocalProject.described(failure, project: project), outcome: outcome,
        headline: headline)
    case let failure as SupabaseDBError:
      return self.failure(.usage, failure.description, outcome: outcome, headline: headline)
    case let failure as SupabaseStorageError:
      return self.failure(.server, failure.description, outcome: outcome, headline: headline)
    default:
      return self.failure(.unreachable, Self.describe(error), outcome: outcome, headline: headline)
    }
  }
}
