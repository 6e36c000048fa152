/// Checks of the CI statements: the newer expectations, `within`, `head`, `max affected`,
/// `rollback`, files in and out.
extension Checker {
  /// Whether `statement` sends a request that `within` can send again.
  public static func sendsRequest(_ statement: Statement) -> Bool {
    switch statement.kind {
    case .query, .rpc, .functions: true
    case .let(let binding):
      if case .statement(let inner) = binding.value { sendsRequest(inner) } else { false }
    default: false
    }
  }

  mutating func checkMore(_ expect: ExpectStatement) {
    switch expect {
    case .count(_, let value):
      checkCount(value, clause: "expect count")
    case .header(_, _, let value):
      checkVariables(in: value)
    case .time:
      break
    case .valueCount(let left, _, let right):
      checkVariables(in: left)
      checkCount(right, clause: "count")
    case .exists(let value, let negated):
      // `expect $env.NAME exists` is the script's own check for it: the place it fails, and a
      // guard for the statements after it.
      if environment != nil, case .variable(let reference) = value.value, reference.name == "env",
        reference.path.count == 1, case .field(let name)? = reference.path.first
      {
        if !negated { guardedEnvironment.insert(name) }
        return
      }
      checkVariables(in: value)
    case .isKind(let value, _, _):
      checkVariables(in: value)
    case .within(let inner, _, _):
      if !previousSendsRequest {
        if case .within = inner {
        } else {
          report(
            .withinWithoutRequest, at: statementRange,
            help: "put the query or rpc to send again right before this 'expect'")
        }
      }
      check(inner)
    default:
      check(expect)
    }
  }

  @inline(__always) mutating func checkGuards(_ modifiers: Modifiers, verb: String) {
    if modifiers.rare?.all != nil { checkAll(modifiers, verb: verb) }
    if let head = modifiers.rare?.head {
      if verb != "select" && verb != "rpc get" {
        report(
          .guardNotAllowed("head", verb), at: head, help: "only a select or 'rpc get' can be HEAD")
      } else if modifiers.rare?.count == nil {
        report(.headWithoutCount, at: head, help: "write 'count exact head'")
      }
    }
    if let range = modifiers.rare?.maxAffectedRange {
      if !(verb == "update" || verb == "delete" || verb.hasPrefix("rpc")) {
        report(
          .guardNotAllowed("max affected", verb), at: range,
          help: "PostgREST limits the rows of update, delete and rpc")
      }
      if let value = modifiers.rare?.maxAffected { checkCount(value, clause: "max affected") }
    }
    if let range = modifiers.rare?.rollback, verb == "select" || verb == "rpc get" {
      report(.guardNotAllowed("rollback", verb), at: range, help: "a read changes nothing")
    }
    if let file = modifiers.rare?.outputFile {
      checkVariables(in: ValueNode(.string(file.literal), range: file.range))
      writesFile = true
    }
    if let file = modifiers.rare?.outputFile, OutputFileFormat(path: file.path) == nil {
      report(
        .unknownOutputFormat(file.path), at: file.range,
        help: "end the name with .csv, .json, .ndjson or .txt")
    }
  }
}

/// The format a `> 'file'` result is written in, from the file's extension.
public enum OutputFileFormat: String, Sendable, Equatable {
  case csv, json, ndjson, table

  public init?(path: String) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    switch name[name.index(after: dot)...].lowercased() {
    case "csv": self = .csv
    case "json": self = .json
    case "ndjson", "jsonl": self = .ndjson
    case "txt", "log", "out": self = .table
    default: return nil
    }
  }
}
