import SNMNetwork
import SNMSupabase
import Testing

@testable import SNMShell

/// A project URL whose host is not found says what to check and what named it: a wrong ref in
/// `https://WRONGREF.supabase.co` said only `host not found`.
@Suite struct UnfoundProjectHostTests {
  static func project(_ url: String, origin: String?) throws -> ProjectSelection {
    var project = try ProjectSelection(url: url, key: "sb_publishable_never_shown")
    project.origin = origin
    return project
  }

  @Test func aHostedRefThatIsNotFoundNamesTheRefAndWhereTheURLCameFrom() throws {
    let project = try Self.project("https://wrongref.supabase.co", origin: "SUPABASE_URL")
    let error = SNMNetworkError.unreachable(
      url: "https://wrongref.supabase.co/rest/v1/t?select=%2A", cause: "host not found")
    #expect(
      UnfoundProjectHost.advice(for: error, project: project)
        == "no host is named wrongref.supabase.co: check the project URL (from SUPABASE_URL): "
        + "'wrongref' must be the project's ref, as in its dashboard's address "
        + "(supabase.com/dashboard/project/REF); or this machine cannot look names up "
        + "(no network, no DNS)")
    let socket = RealtimeError.socket(.unreachable("host not found"))
    #expect(UnfoundProjectHost.advice(for: socket, project: project) != nil)
  }

  @Test func onlyTheProjectsOwnHostNotFoundGetsTheAdvice() throws {
    let project = try Self.project("https://api.example.com", origin: "--profile staging")
    let own = SNMNetworkError.unreachable(
      url: "https://API.example.com/auth/v1/token", cause: "host not found")
    #expect(
      UnfoundProjectHost.advice(for: own, project: project)
        == "no host is named api.example.com: check the project URL (from --profile staging); "
        + "or this machine cannot look names up (no network, no DNS)")
    let other = SNMNetworkError.unreachable(
      url: "https://other.example.com/x", cause: "host not found")
    #expect(UnfoundProjectHost.advice(for: other, project: project) == nil)
    let refused = SNMNetworkError.unreachable(
      url: "https://api.example.com/rest/v1/", cause: "connection refused")
    #expect(UnfoundProjectHost.advice(for: refused, project: project) == nil)
  }
}
