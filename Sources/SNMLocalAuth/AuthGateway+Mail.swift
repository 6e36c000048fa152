import SNMGateway
import SNMWire

extension AuthGateway {
  /// Makes a code for `user`'s mail of `kind`, keeps its hash (and the time) on the user, and
  /// puts the message in the inbox. `address` is where it goes (for `emailChangeNew` the new
  /// address), the code's hash is of that address; `change` names both addresses of an e-mail
  /// change for its text; with `deliver` false (generate_link) nothing goes to the inbox.
  /// Returns the code and the link.
  @discardableResult
  func sendMail(
    _ kind: AuthMailKind, to address: String, userID: String, redirectTo: String? = nil,
    change: (from: String, to: String)? = nil, deliver: Bool = true,
    pkce: PKCEChallenge? = nil, on connection: PGConnection
  ) throws -> (code: OneTimeCode, link: String?) {
    let otp = try OneTimeCode.newOTP()
    let stored = try OneTimeCode.hash(address: address.lowercased(), otp: otp)
    try FlowTokenStore(connection).setCode(kind, userID: userID, hash: stored)
    // A PKCE flow's link carries GoTrue's `pkce_` token: following it answers with an auth code.
    try startFlow(pkce, userID: userID, kind: kind, on: connection)
    let hash = pkce == nil ? stored : PKCEChallenge.tokenPrefix + stored
    let link = kind.verifyType.map {
      settings.verifyLink(tokenHash: hash, type: $0, redirectTo: redirectTo)
    }
    let code = OneTimeCode(otp: otp, tokenHash: hash)
    guard deliver else { return (code, link) }
    let text = kind.text(otp: otp, link: link, change: change, site: settings.siteURL)
    try InboxStore(connection).deliverMail(
      InboxStore.Message(
        recipient: address, kind: kind.inboxKind, subject: kind.subject, otp: otp,
        tokenHash: hash, link: link, body: text))
    return (code, link)
  }
}
