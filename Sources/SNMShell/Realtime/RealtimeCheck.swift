import Foundation
import SNMSupabase
import SNMWire

/// `snm realtime check TABLE`: why a table's changes would not reach the signed-in user (signed
/// out: the project's key, as `anon`). Asks the database, when there is one to ask, whether the
/// table is in the `supabase_realtime` publication, its replica identity and whether RLS lets this
/// user's role and claims read its rows; then joins the table's postgres_changes as `listen` does.
///
/// ```swift
/// let check = RealtimeCheck(table: "todos")
/// let code = await check.run(executor: executor, facts: { schema, table, role, claims in ... })
/// ```
/// Prints one line per finding (`ok`, `problem`, `note`, `not checked` and why); exit 1 when a
/// problem was found, 3 when Realtime cannot be reached, else 0.
public struct RealtimeCheck: Sendable, Equatable {
  /// What the database says about `schema.table` for `role` with `claims` (a JSON object); nil
  /// when the table does not exist.
  public typealias Facts =
    @Sendable (
      _ schema: String, _ table: String, _ role: String, _ claims: String
    ) throws -> RealtimeTableFacts?

  /// `todos` or `app.todos`.
  public var table: String

  public init(table: String) { self.table = table }

  /// Checks and prints the findings; `facts` nil (a hosted project) says what that leaves out,
  /// with `unavailable` as the reason.
  public func run(executor: StatementExecutor, facts: Facts?, unavailable: String) async
    -> ExitCode
  {
    let parts = table.split(separator: ".", maxSplits: 1).map(String.init)
    let (schema, name) = parts.count == 2 ? (parts[0], parts[1]) : ("public", table)
    let token: String
    do {
      token = try await executor.sessions.requestToken() ?? executor.project.key
    } catch {
      executor.report("realtime check: \(error)")
      return .unreachable
    }
    let claims = Self.claims(of: token)
    let role = claims["role"]?.stringValue ?? "anon"
    let who = claims["email"]?.stringValue ?? claims["sub"]?.stringValue
    var report = RealtimeCheckReport(
      title: "realtime check \(schema).\(name), as \(role)" + (who.map { " (\($0))" } ?? ""))
    if let facts {
      do {
        guard let found = try facts(schema, name, role, claims.serialized()) else {
          report.problem("no table \(schema).\(name) in the database")
          return report.print(to: executor.baseOutput)
        }
        report.add(found, table: "\(schema).\(name)", role: role)
      } catch {
        report.notChecked("the database could not be asked: \(error)")
      }
    } else {
      report.notChecked(
        "the publication, replica identity and RLS: \(unavailable); the Realtime join below "
          + "still tells whether the table is published")
    }
    let probe = await join(schema: schema, name: name, token: token, executor: executor)
    report.add(probe)
    return report.print(to: executor.baseOutput)
  }

  /// Joins the table's postgres_changes (every kind) as `listen` would, then leaves.
  private func join(schema: String, name: String, token: String, executor: StatementExecutor)
    async -> RealtimeCheckReport.Probe
  {
    let session = RealtimeSession()
    defer { Task { await session.leaveAll() } }
    let socket: RealtimeSocket
    do {
      socket = try await session.socket(
        projectURL: executor.project.url.absoluteString, key: executor.project.key, token: token,
        certificateAuthorities: executor.provider.configuration.certificateAuthorities)
    } catch {
      return .unreachable("\(error)")
    }
    let config = RealtimeChannelConfig(
      postgresChanges: [.init(event: "*", schema: schema, table: name)])
    do throws(RealtimeJoinFailure) {
      try await session.join(
        "\(schema).\(name)", config: config, listening: true, socket: socket, token: token)
    } catch {
      return .refused(
        RealtimeStatements.notLive(error, name: "\(schema).\(name)", config: config))
    }
    return .live
  }

  /// The claims of a JWT's payload; a key that is no JWT (`sb_publishable_...`) stands for anon.
  static func claims(of token: String) -> JSONValue {
    let parts = token.split(separator: ".")
    guard parts.count == 3 else { return ["role": "anon"] }
    var text = String(parts[1]).replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text),
      let claims = try? JSONValue(parsing: data),
      claims.objectValue != nil
    else { return ["role": "anon"] }
    return claims
  }
}
