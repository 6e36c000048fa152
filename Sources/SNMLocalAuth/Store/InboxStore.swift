import SNMGateway

/// Every SQL statement about the local inbox (`snm_local.inbox`): the mails and texts the
/// project would have sent, kept so that a developer (and the tests) can read their codes and
/// links. Named operations on the caller's connection, values only as parameters.
///
/// ```swift
/// try InboxStore(connection).deliverMail(message)
/// let newest = try InboxStore(connection).messages(to: "ann@example.com", limit: 50)
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct InboxStore: AuthSQLStore {
  let connection: PGConnection

  /// One message, as it is kept and as `GET /inbox/v1/messages` lists it.
  struct Message: Equatable {
    var id: String?
    var recipient: String?
    var kind: String?
    var subject: String?
    var otp: String?
    var tokenHash: String?
    var link: String?
    /// When it went, as GoTrue writes a time (`AuthStore.iso`); nil on one not yet kept.
    var sentAt: String?
    var body: String?
  }

  /// Keeps a mail; its recipient is kept lowercased.
  func deliverMail(_ message: Message) throws {
    _ = try connection.execute(
      "insert into snm_local.inbox (recipient, kind, subject, otp, token_hash, link, body) "
        + "values (lower($1), $2, $3, $4, $5, $6, $7)",
      [
        message.recipient, message.kind, message.subject, message.otp, message.tokenHash,
        message.link, message.body,
      ])
  }

  /// Keeps a text to `phone` (digits) carrying `otp` (its hash `tokenHash`); returns its id,
  /// the message id an SMS provider would answer.
  func deliverText(to phone: String, otp: String, tokenHash: String, body: String) throws
    -> String
  {
    let sent = try connection.execute(
      "insert into snm_local.inbox (recipient, kind, subject, otp, token_hash, link, body) "
        + "values ($1, 'sms', 'SMS', $2, $3, null, $4) returning id::text",
      [phone, otp, tokenHash, body])
    return sent.scalar ?? ""
  }

  /// The newest `limit` messages to `recipient` (any case; all of them for ""), newest first.
  func messages(to recipient: String, limit: Int) throws -> [Message] {
    let rows = try connection.execute(
      "select id::text, recipient, kind, subject, otp, token_hash, link, "
        + "\(AuthStore.iso("sent_at")), body from snm_local.inbox "
        + "where $1 = '' or lower(recipient) = lower($1) "
        + "order by sent_at desc, id desc limit $2::int", [recipient, String(limit)])
    return rows.rows.compactMap { row in
      guard row.count == 9 else { return nil }
      return Message(
        id: row[0], recipient: row[1], kind: row[2], subject: row[3], otp: row[4],
        tokenHash: row[5], link: row[6], sentAt: row[7], body: row[8])
    }
  }
}
