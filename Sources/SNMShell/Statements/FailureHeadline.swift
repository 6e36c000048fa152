import SNMNetwork
import SNMSupabase

/// What went wrong with a request or a sign-in, named for its cause: the line a script's error
/// starts with (`-c:1:1: error: timed out after 5 s: rpc ...`). Each of these is exit code 3, as
/// an unreachable project is; only the words differ.
///
/// ```swift
/// FailureHeadline.of(SNMNetworkError.timedOut(url: u, seconds: 5))   // "timed out after 5 s"
/// ```
enum FailureHeadline {
  /// The headline for `error`, or nil when "could not reach the project" (or "sign-in failed")
  /// says it.
  static func of(_ error: any Error) -> String? {
    if let stopped = StoppedLocalProject(error) { return stopped.headline }
    return switch error {
    case SNMNetworkError.http(let failure) where failure.status == 401 && failure.code == nil:
      refusedKey
    case SNMNetworkError.timedOut(_, let seconds, _):
      "timed out after \(format(seconds)) s"
    case SNMNetworkError.malformedResponse:
      "the project's answer could not be read"
    case let failure as SupabaseAuthError where failure.status == 401 && failure.code == .unknown:
      refusedKey
    case SupabaseSessionError.endedByServer,
      SupabaseSessionError.storedUnusable(.endedByServer):
      "the session ended on the server"
    case SupabaseSessionError.refreshFailed, SupabaseSessionError.unreachable:
      "could not refresh the session"
    case SupabaseSessionError.lockTimeout:
      "the session is locked by another snm"
    case SupabaseSessionError.storedUnusable:
      "the saved session could not be used"
    case SupabaseSessionError.otherUserSignedIn:
      "another user signed in on the saved session"
    default:
      nil
    }
  }

  static let refusedKey = "the project refused the API key"
  /// What ``refusedKey`` is for a request sent `as service` (or `admin`): the service key's.
  static let refusedServiceKey = "the project refused the service key"

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
