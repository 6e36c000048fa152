import Foundation

extension Checker {
  /// An account, MFA, admin or inbox statement: its variables, ids that are UUIDs, objects
  /// where objects go, counts that are numbers.
  mutating func check(_ auth: AuthStatement) {
    for value in auth.values { checkVariables(in: value) }
    switch auth {
    case .userUpdate(let update):
      if let body = update.body { checkObject(body, clause: "user update") }
    case .mfaVerify(let factor?, _), .mfaUnenroll(let factor):
      checkID(factor, what: "a factor id")
    case .admin(let admin):
      check(admin)
    default:
      break
    }
  }

  mutating func check(_ admin: AdminStatement) {
    switch admin {
    case .users(_, let limit, let page):
      if let limit { checkCount(limit, clause: "limit") }
      if let page {
        if case .number(let text) = page.value, (Int(text) ?? 0) < 1 {
          report(.notAPage(found: describe(page.value)), at: page.range)
        } else {
          checkCount(page, clause: "page")
        }
      }
    case .user(let id), .deleteUser(let id, _):
      checkID(id, what: "a user id")
    case .updateUser(let id, let body):
      checkID(id, what: "a user id")
      checkObject(body, clause: "admin update user")
    case .createUser(let creation):
      if let data = creation.data { checkObject(data, clause: "data") }
      if let app = creation.app { checkObject(app, clause: "app") }
    case .link(_, _, _, let data?):
      checkObject(data, clause: "data")
    case .link:
      break
    case .invite(_, let data?):
      checkObject(data, clause: "data")
    case .invite:
      break
    }
  }

  /// `as service` takes what sends one REST or Storage request with a key.
  mutating func checkAsService(_ inner: Statement) {
    switch inner.kind {
    case .query, .rpc, .storage:
      check(inner)
    default:
      let word = inner.canonicalText.split(separator: " ").first.map(String.init) ?? "this"
      report(
        .notAsService("'\(word)'"), at: inner.range,
        help: "'admin ...' statements use the service key already; write "
          + "'as service from <table> ...', 'as service rpc ...' or 'as service storage ...'")
    }
  }

  /// A UUID as written, a string that is one, or a variable (checked when filled in).
  mutating func checkID(_ node: ValueNode, what: String) {
    switch node.value {
    case .uuid, .variable: return
    case .string(let literal):
      guard let text = literal.constantText else { return }
      if UUID(uuidString: text) != nil { return }
      report(.notAnID(what, found: "'\(text)'"), at: node.range)
    default:
      report(.notAnID(what, found: describe(node.value)), at: node.range)
    }
  }

  /// An object as written, or a variable.
  mutating func checkObject(_ node: ValueNode, clause: String) {
    switch node.value {
    case .object, .variable: return
    default: report(.notAnObject(clause, found: describe(node.value)), at: node.range)
    }
  }
}
