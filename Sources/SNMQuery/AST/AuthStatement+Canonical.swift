extension AuthStatement {
  /// One spelling of the statement, which parses back to it (`Statement.canonicalText`).
  var canonicalText: String {
    switch self {
    case .userShow: return "user show"
    case .reauthenticate: return "user reauthenticate"
    case .userUpdate(let update):
      return "user update" + (update.body.map { " " + text($0) } ?? "")
        + clause("email", update.email) + clause("password", update.password)
        + clause("nonce", update.nonce)
    case .passwordReset(let email): return "password reset " + text(email)
    case .sendOTP(let address, let magicLink):
      return (magicLink ? "login magic link " : "login otp \(address.kind.rawValue) ")
        + text(address.value)
    case .verifyOTP(let address, let token, let type):
      return "verify otp \(address.kind.rawValue) " + text(address.value) + " token "
        + text(token) + (type.map { " type " + $0 } ?? "")
    case .resend(let type, let address): return "resend \(type) " + text(address.value)
    case .mfaFactors: return "mfa factors"
    case .mfaEnroll(let name, let issuer):
      return "mfa enroll totp" + clause("name", name) + clause("issuer", issuer)
    case .mfaVerify(let factor, let answer):
      let head = "mfa verify" + (factor.map { " factor " + text($0) } ?? "")
      switch answer {
      case .code(let code): return head + " code " + text(code)
      case .secret(let secret): return head + " secret " + text(secret)
      }
    case .mfaUnenroll(let factor): return "mfa unenroll " + text(factor)
    case .inbox(let address): return "inbox " + text(address)
    case .admin(let admin): return "admin " + admin.canonicalText
    case .signInWithIDToken(let provider, let token, let nonce):
      return "login \(provider) id-token " + text(token) + clause("nonce", nonce)
    case .signInWithProvider(let name): return "login provider \(name)"
    }
  }
}

extension AdminStatement {
  var canonicalText: String {
    switch self {
    case .users(let filter, let limit, let page):
      return "users"
        + (filter.map { " where email \($0.op.rawValue) " + text($0.pattern) } ?? "")
        + clause("limit", limit) + clause("page", page)
    case .user(let id): return "user " + text(id)
    case .createUser(let creation):
      return "create user email " + text(creation.email) + clause("password", creation.password)
        + (creation.confirmed ? " confirmed" : "") + clause("data", creation.data)
        + clause("app", creation.app)
    case .updateUser(let id, let body): return "update user " + text(id) + " " + text(body)
    case .deleteUser(let id, let soft): return "delete user " + text(id) + (soft ? " soft" : "")
    case .link(let type, let email, let password, let data):
      return "link \(type) email " + text(email) + clause("password", password)
        + clause("data", data)
    case .invite(let email, let data): return "invite " + text(email) + clause("data", data)
    }
  }
}

/// A value as its canonical statement writes it.
private func text(_ node: ValueNode) -> String { node.value.canonicalText }

/// ` word value`, or nothing without a value: an optional clause of a canonical statement.
private func clause(_ word: String, _ node: ValueNode?) -> String {
  node.map { " \(word) " + text($0) } ?? ""
}
