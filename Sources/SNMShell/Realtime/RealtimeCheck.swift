import Foundation
import SNMQuery
import SNMSupabase
import SNMWire

/// `realtime check todos` (the statement) and `snm realtime check TABLE` (the subcommand): why
/// a table's changes, or a channel's messages, would not reach the signed-in user (signed out:
/// the project's key's role). Asks the database, when snm may read it
/// (``RealtimeCheckDatabases``: a local project), whether the table is in the
/// `supabase_realtime` publication, its replica identity and whether RLS lets this user's role
/// and claims read its rows, or whether a private channel's policies on `realtime.messages` let
/// them read and write; then joins as `listen` does, and leaves.
///
/// ```swift
/// let check = RealtimeCheck(target: .table(TableName(Name("todos", range: range))))
/// let report = await check.findings(in: environment)
/// ```
/// One line per finding (`ok`, `note`, `problem`, `not checked` and why); exit 1 when a problem
/// was found, 3 when Realtime cannot be reached, else 0.
public struct RealtimeCheck: Sendable, Equatable {
  public var target: RealtimeCheckTarget

  public init(target: RealtimeCheckTarget) { self.target = target }

  /// `todos` or `app.todos`, as the subcommand takes it.
  public init(table: String) {
    let parts = table.split(separator: ".", maxSplits: 1).map(String.init)
    let point = SourceRange.point(0)
    self.init(
      target: .table(
        parts.count == 2
          ? TableName(Name(parts[1], range: point), in: Name(parts[0], range: point))
          : TableName(Name(table, range: point))))
  }

  /// The subcommand: checks with `executor`'s project and session, prints the findings on its
  /// standard output, and returns their exit code.
  public func run(executor: StatementExecutor) async -> ExitCode {
    let environment = await executor.statementEnvironment(StatementRouting())
    let report = await findings(in: environment)
    executor.baseOutput.write(report.text)
    executor.baseOutput.flush()
    return report.code
  }

  /// The findings for the project and session of `environment`.
  func findings(in environment: StatementEnvironment) async -> RealtimeCheckReport {
    let project = environment.project
    let name: String
    let config: RealtimeChannelConfig
    do {
      guard let call = try RealtimeCompiler().compile(.check(target)),
        case .check(let joined, let joinConfig) = call.action
      else { return RealtimeCheckReport(title: "realtime check") }
      (name, config) = (joined, joinConfig)
    } catch {
      var report = RealtimeCheckReport(title: "realtime check \(target.name)")
      report.unusable(error.message.text)
      return report
    }
    let token: String
    do {
      token = try await environment.sessions.requestToken() ?? project.key
    } catch {
      var report = RealtimeCheckReport(title: "realtime check \(target.name)")
      report.unreachable("the session could not be used: \(error)")
      return report
    }
    let claims = Self.claims(of: token)
    let role = claims["role"]?.stringValue ?? "anon"
    let who = claims["email"]?.stringValue ?? claims["sub"]?.stringValue
    var report = RealtimeCheckReport(
      title: "realtime check \(Self.subject(target)), as \(role)" + (who.map { " (\($0))" } ?? ""))
    if role == "service_role" {
      report.note(
        "service_role passes row level security and every channel policy: this says nothing "
          + "of what anon or a signed-in user gets (sign in with 'login ...' to check as them)")
    }
    let database = RealtimeCheckDatabases.shared.database(for: project.url)
    let unavailable =
      "not a local project named with --local or --dir DIR (the only databases snm reads"
      + (project.serviceKey != nil ? "; the service key does not reach a database" : "") + ")"
    switch target {
    case .table:
      guard let database else {
        report.notChecked(
          "the publication, replica identity and RLS: \(unavailable); the Realtime join "
            + "below still tells whether the table is published")
        break
      }
      let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
      do {
        guard
          let found = try database.table(
            schema: parts[0], name: parts.count > 1 ? parts[1] : "", role: role, claims: claims)
        else {
          report.problem("no table \(name) in the database")
          return report
        }
        report.add(found, table: name, role: role)
      } catch {
        report.notChecked("the database could not be asked: \(error)")
      }
    case .channel(_, let isPrivate):
      guard isPrivate else {
        report.note(
          "a public channel: anyone with the project's key may join, send and track on it "
            + "(add 'private' to try the policies of a private channel on realtime.messages)")
        break
      }
      if let database {
        do {
          report.add(try database.channel(topic: name, claims: claims), topic: name)
        } catch {
          report.notChecked("the channel's policies: the database could not be asked: \(error)")
        }
      } else {
        report.notChecked(
          "the write policy (broadcast, presence) on realtime.messages: \(unavailable); "
            + "Realtime drops a refused broadcast without a reply, so only the database tells; "
            + "the join below tries the read policy")
      }
    }
    let probe = await join(
      name, config: config, project: project, token: token,
      certificateAuthorities: environment.connection.provider.configuration
        .certificateAuthorities)
    report.add(probe, channel: !config.postgresChanges.isEmpty ? nil : config.isPrivate)
    return report
  }

  /// `public.todos`, `channel room1` or `channel room1 (private)`.
  static func subject(_ target: RealtimeCheckTarget) -> String {
    switch target {
    case .table: target.name
    case .channel(_, let isPrivate): "channel \(target.name)" + (isPrivate ? " (private)" : "")
    }
  }

  /// Joins as `listen` would, then leaves.
  private func join(
    _ name: String, config: RealtimeChannelConfig, project: ProjectSelection, token: String,
    certificateAuthorities: String?
  ) async -> RealtimeCheckReport.Probe {
    let session = RealtimeSession()
    defer { Task { await session.leaveAll() } }
    let socket: RealtimeSocket
    do {
      socket = try await session.socket(
        projectURL: project.url.absoluteString, key: project.key, token: token,
        certificateAuthorities: certificateAuthorities)
    } catch {
      return .unreachable("\(error)")
    }
    do throws(RealtimeJoinFailure) {
      try await session.join(name, config: config, listening: true, socket: socket, token: token)
    } catch {
      return .refused(RealtimeStatements.notLive(error, name: name, config: config))
    }
    return .live
  }

  /// The claims of a JWT's payload; a key that is no JWT (`sb_publishable_...`) stands for anon.
  static func claims(of token: String) -> JSONValue {
    let parts = token.split(separator: ".")
    guard parts.count == 3 else { return ["role": .string(SupabaseAPIKey(token).role)] }
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
