import Foundation

/// The findings of `realtime check`, one line each under a title, and the exit code they make:
/// 1 when one is a problem, 2 when the check could not run as written, 3 when the project or its
/// Realtime could not be reached, else 0.
///
/// ```text
/// realtime check public.todos, as authenticated (ada@example.com)
///   ok           in the supabase_realtime publication
///   note         replica identity default: ...
///   problem      row level security is on and no select policy applies to authenticated: ...
///   ok           Realtime joined and subscribed to the table
/// ```
struct RealtimeCheckReport: Sendable {
  /// How the Realtime join went.
  enum Probe: Sendable {
    case live
    case refused(String)
    case unreachable(String)
  }

  var title: String
  private var lines: [(mark: String, text: String)] = []
  /// The exit code the findings make.
  private(set) var code = ExitCode.success

  init(title: String) { self.title = title }

  mutating func ok(_ text: String) { lines.append(("ok", text)) }
  mutating func note(_ text: String) { lines.append(("note", text)) }
  mutating func notChecked(_ text: String) { lines.append(("not checked", text)) }

  mutating func problem(_ text: String) {
    lines.append(("problem", text))
    if code == .success { code = .failure }
  }

  /// The check could not run as written (exit 2).
  mutating func unusable(_ text: String) {
    lines.append(("problem", text))
    code = .usage
  }

  /// The project could not be reached, or the session used (exit 3).
  mutating func unreachable(_ text: String) {
    lines.append(("problem", text))
    code = .unreachable
  }

  /// How many findings are problems.
  var problems: Int { lines.filter { $0.mark == "problem" }.count }

  /// What a private channel's policies let the user do on `topic`.
  mutating func add(_ access: RealtimeChannelAccess, topic: String) {
    if access.read {
      ok("read: a select policy on realtime.messages lets this user join \(topic) and receive")
    } else {
      problem(
        "read: no select policy on realtime.messages lets this user read \(topic): the join is "
          + "refused (Unauthorized); policies see the topic as realtime.topic()")
    }
    if access.write {
      ok(
        "write: an insert policy on realtime.messages lets this user broadcast and track on \(topic)"
      )
    } else {
      problem(
        "write: no insert policy on realtime.messages lets this user write \(topic): Realtime "
          + "drops their broadcasts and presence without a reply")
    }
  }

  /// The database's findings about `table` for `role`.
  mutating func add(_ facts: RealtimeTableFacts, table: String, role: String) {
    if facts.inPublication {
      ok("in the supabase_realtime publication")
    } else {
      problem(
        "not in the supabase_realtime publication: no change is sent "
          + "(alter publication supabase_realtime add table \(table))")
    }
    switch facts.replicaIdentity {
    case "f":
      ok("replica identity full: an UPDATE's and a DELETE's old_record hold every column")
    case "n":
      problem(
        "replica identity nothing: UPDATE and DELETE carry no old_record "
          + "(alter table \(table) replica identity full)")
    default:
      note(
        "replica identity \(facts.replicaIdentity == "i" ? "index" : "default"): an UPDATE's "
          + "and a DELETE's old_record hold only the key columns, and a filter on another column "
          + "never matches a DELETE (alter table \(table) replica identity full, if you need them)"
      )
    }
    addAccess(facts, table: table, role: role)
  }

  private mutating func addAccess(_ facts: RealtimeTableFacts, table: String, role: String) {
    let counted =
      "\(facts.visibleRows) of \(facts.rows)\(facts.rows >= RealtimeTableFacts.sampleLimit ? "+" : "") rows"
    guard facts.rowSecurity else {
      if role == "service_role" || facts.visibleRows == facts.rows {
        ok("row level security off: \(role) sees every row (\(counted))")
      } else {
        problem("\(role) cannot read \(table) (\(counted)): grant select on \(table) to \(role)")
      }
      return
    }
    let policies =
      facts.selectPolicies.isEmpty
      ? "no select policy for \(role)"
      : "select " + (facts.selectPolicies.count == 1 ? "policy " : "policies ")
        + facts.selectPolicies.map { "\"\($0)\"" }.joined(separator: ", ")
    if facts.rows == 0 {
      notChecked(
        "row level security on (\(policies)): the table has no rows to try the policy on")
    } else if facts.visibleRows == 0 {
      problem(
        "row level security on (\(policies)): this user sees none of its rows (\(counted)), "
          + "so none of their changes reach this user")
    } else {
      ok(
        "row level security on (\(policies)): this user sees \(counted); changes to the others "
          + "do not reach this user")
    }
  }

  /// How the join went: `channel` nil for a table, else whether the channel is private.
  mutating func add(_ probe: Probe, channel: Bool?) {
    switch probe {
    case .live:
      switch channel {
      case nil: ok("Realtime joined and subscribed to the table (\"Subscribed to PostgreSQL\")")
      case true?: ok("Realtime joined the private channel: its read policy let this user in")
      case false?: ok("Realtime joined the channel")
      }
    case .refused(let why):
      problem(why.replacingOccurrences(of: "\n", with: " "))
    case .unreachable(let why):
      lines.append(("problem", "Realtime could not be reached: \(why)"))
      code = .unreachable
    }
  }

  /// The title and the findings, a line each.
  var text: String {
    var text = title + "\n"
    for line in lines {
      let mark = line.mark.padding(toLength: 12, withPad: " ", startingAt: 0)
      text += "  \(mark) \(VisibleText.escaped(line.text))\n"
    }
    return text
  }
}
