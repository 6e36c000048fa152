import Foundation
import SNMSupabase
import SNMWire

/// Fills in the values of account, MFA, admin and inbox statements: what `AuthCall` the shell
/// runs and `explain` shows.
///
/// ```swift
/// let call = try AuthCompiler(scope: scope).compile(statement)
/// ```
/// Throws a `Diagnostic` at the value that cannot be filled in (an unbound variable, a number
/// where a string goes, an id that is not a UUID, a body that is not an object).
public struct AuthCompiler: Sendable {
  public var scope: VariableScope

  public init(scope: VariableScope = VariableScope()) {
    self.scope = scope
  }

  /// The auth statement inside `statement` (itself, or in `explain` or `let`), or nil.
  public static func authStatement(_ statement: Statement) -> AuthStatement? {
    statement.inner { kind in
      if case .auth(let auth) = kind { auth } else { nil }
    }
  }

  /// Compiles the auth statement in `statement` (or in `explain` or `let`).
  public func compile(_ statement: Statement) throws(Diagnostic) -> AuthCall {
    let auth = try statement.requiring(Self.authStatement(statement))
    return try compile(auth)
  }

  public func compile(_ auth: AuthStatement) throws(Diagnostic) -> AuthCall {
    switch auth {
    case .userShow: return .userShow
    case .reauthenticate: return .reauthenticate
    case .userUpdate(let update):
      var attributes = UserAttributes()
      if let body = update.body {
        let object = try self.object(body, clause: "user update")
        let bodyKeys: Set<String> = ["data", "email", "password", "nonce", "phone", "app_metadata"]
        if object.keys.contains(where: bodyKeys.contains) {
          for (key, value) in object {
            switch (key, value) {
            case ("email", .string(let text)): attributes.email = text
            case ("password", .string(let text)): attributes.password = text
            case ("nonce", .string(let text)): attributes.nonce = text
            case ("data", _): attributes.data = value
            default: attributes.other.append(key, value)
            }
          }
        } else {
          attributes.data = .object(object)
        }
      }
      if let email = update.email { attributes.email = try text(email) }
      if let password = update.password { attributes.password = try text(password) }
      if let nonce = update.nonce { attributes.nonce = try text(nonce) }
      return .userUpdate(attributes)
    case .passwordReset(let email): return .passwordReset(email: try text(email))
    case .sendOTP(let address, let magicLink):
      return .sendOTP(to: try recipient(address), magicLink: magicLink)
    case .verifyOTP(let address, let token, let type):
      return .verifyOTP(
        to: try recipient(address), token: try text(token),
        type: type ?? (address.kind == .email ? "email" : "sms"))
    case .resend(let type, let address): return .resend(type: type, to: try recipient(address))
    case .mfaFactors: return .mfaFactors
    case .mfaEnroll(let name, let issuer):
      return .mfaEnroll(name: try name.map(text), issuer: try issuer.map(text))
    case .mfaVerify(let factor, let answer):
      let id = try factor.map { node throws(Diagnostic) in try self.id(node, what: "a factor id") }
      switch answer {
      case .code(let code): return .mfaVerify(factor: id, answer: .code(try text(code)))
      case .secret(let secret): return .mfaVerify(factor: id, answer: .secret(try text(secret)))
      }
    case .mfaUnenroll(let factor):
      return .mfaUnenroll(factor: try id(factor, what: "a factor id"))
    case .inbox(let address): return .inbox(address: try text(address))
    case .admin(let admin): return try compile(admin)
    case .signInWithIDToken(let provider, let token, let nonce):
      return .signInWithIDToken(
        OpenIDConnectCredentials(
          provider: provider, idToken: try text(token), nonce: try nonce.map(text)))
    case .signInWithProvider(let provider): return .signInWithProvider(provider)
    }
  }

  func compile(_ admin: AdminStatement) throws(Diagnostic) -> AuthCall {
    switch admin {
    case .users(let filter, let limit, let page):
      let resolved = try filter.map { filter throws(Diagnostic) in
        AuthCall.UserFilter(op: filter.op, pattern: try text(filter.pattern))
      }
      return .adminUsers(
        page: try page.map { node throws(Diagnostic) in try count(node, clause: "page", from: 1) },
        perPage: try limit.map { node throws(Diagnostic) in
          try count(node, clause: "limit", from: 1)
        },
        filter: resolved)
    case .user(let id): return .adminUser(id: try self.id(id, what: "a user id"))
    case .createUser(let creation):
      var attributes: JSONObject = ["email": .string(try text(creation.email))]
      if let password = creation.password {
        attributes.append("password", .string(try text(password)))
      }
      if creation.confirmed { attributes.append("email_confirm", true) }
      if let data = creation.data {
        attributes.append("user_metadata", .object(try object(data, clause: "data")))
      }
      if let app = creation.app {
        attributes.append("app_metadata", .object(try object(app, clause: "app")))
      }
      return .adminCreateUser(attributes)
    case .updateUser(let id, let body):
      return .adminUpdateUser(
        id: try self.id(id, what: "a user id"),
        attributes: try object(body, clause: "admin update user"))
    case .deleteUser(let id, let soft):
      return .adminDeleteUser(id: try self.id(id, what: "a user id"), soft: soft)
    case .link(let type, let email, let password, let data):
      return .adminLink(
        type: type, email: try text(email), password: try password.map(text),
        data: try data.map { node throws(Diagnostic) in .object(try object(node, clause: "data")) })
    case .invite(let email, let data):
      return .adminInvite(
        email: try text(email),
        data: try data.map { node throws(Diagnostic) in .object(try object(node, clause: "data")) })
    }
  }

  /// A string value's text (a variable holding a string, a number as written).
  func text(_ node: ValueNode) throws(Diagnostic) -> String {
    let value = try ValueEvaluator.json(node, in: scope)
    switch value {
    case .string(let text): return text
    case .number(let number): return number.text
    default:
      throw Diagnostic(
        .expected("a string", after: nil, found: value.typeName), at: node.range,
        help: "quote text values")
    }
  }

  /// Whether `node` is a variable `snm check` and `explain` stand in for (bound only at run time).
  func isPlaceholder(_ node: ValueNode) -> Bool {
    guard case .variable(let reference) = node.value else { return false }
    return scope.isPlaceholder(reference)
  }

  /// A UUID, lowercased.
  func id(_ node: ValueNode, what: String) throws(Diagnostic) -> String {
    let value = try text(node)
    if isPlaceholder(node) { return value }
    guard UUID(uuidString: value) != nil else {
      throw Diagnostic(.notAnID(what, found: "'\(value)'"), at: node.range)
    }
    return value.lowercased()
  }

  func object(_ node: ValueNode, clause: String) throws(Diagnostic) -> JSONObject {
    if isPlaceholder(node) { return JSONObject() }
    let value = try ValueEvaluator.json(node, in: scope)
    guard let object = value.objectValue else {
      throw Diagnostic(.notAnObject(clause, found: value.typeName), at: node.range)
    }
    return object
  }

  func count(_ node: ValueNode, clause: String, from minimum: Int) throws(Diagnostic) -> Int {
    if isPlaceholder(node) { return minimum }
    let value = try ValueEvaluator.json(node, in: scope)
    guard let number = value.intValue ?? value.stringValue.flatMap({ Int($0) }), number >= minimum
    else {
      throw Diagnostic(
        .notACount(clause, found: value.serialized()), at: node.range,
        help: "a whole number from \(minimum)")
    }
    return number
  }

  /// `email '...'` or `phone '...'` with its value filled in.
  func recipient(_ address: OTPAddress) throws(Diagnostic) -> OTPRecipient {
    let value = try text(address.value)
    return address.kind == .email ? .email(value) : .phone(value)
  }
}
