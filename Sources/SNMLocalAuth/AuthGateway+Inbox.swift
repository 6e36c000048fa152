import SNMGateway
import SNMWire

extension AuthGateway {
  /// `GET /inbox/v1/messages?to=ADDRESS&limit=N`: the mails the project would have sent, newest
  /// first, `to` matched in any case (a phone number as its digits: texts are kept so), at most
  /// `limit` (default 50, at most 1000). Only for the
  /// project's service_role key (as `apikey` or as the Bearer token): 401 without one, 403 for
  /// any other key or token, in GoTrue's error shape.
  ///
  /// Each message: `{"id", "to", "kind", "subject", "otp", "token_hash", "link", "sent_at",
  /// "text"}` (`otp` and `link` null when the kind has none).
  func inbox(_ request: HTTPRequest, isServiceKey: (String) -> Bool) -> HTTPResponse {
    let format = AuthErrorFormat(request)
    do {
      let bearer = request.headers["Authorization"].flatMap(RequestAuth.bearerToken) ?? ""
      let apiKey = request.headers["apikey"] ?? ""
      guard !bearer.isEmpty || !apiKey.isEmpty else { throw AuthFailure.noAuthorization }
      // Every credential given must be the service key: a user's token beside it is refused.
      for credential in [bearer, apiKey] where !credential.isEmpty {
        guard isServiceKey(credential) else { throw AuthFailure.notAdmin }
      }
      guard request.method == "GET" || request.method == "HEAD" else {
        throw AuthFailure.methodNotAllowed
      }
      var address = request.queryValue("to")?.trimmingSpaces ?? ""
      // A phone number's texts are kept under its digits, as GoTrue keeps the number.
      if !address.contains("@"), let phone = try? Self.normalizedPhone(address) { address = phone }
      var limit = 50
      if let text = request.queryValue("limit") {
        guard let value = Int(text), value >= 1 else {
          throw AuthFailure(
            status: 400, code: "validation_failed", message: "limit must be a positive number")
        }
        limit = min(value, 1000)
      }
      let rows = try pool.withConnection { connection in
        try connection.execute(
          "select id::text, recipient, kind, subject, otp, token_hash, link, "
            + "\(AuthStore.iso("sent_at")), body from snm_local.inbox "
            + "where $1 = '' or lower(recipient) = lower($1) "
            + "order by sent_at desc, id desc limit $2::int", [address, String(limit)])
      }
      let messages: [JSONValue] = rows.rows.compactMap { row in
        guard row.count == 9 else { return nil }
        return .object([
          .init("id", .optional(row[0])), .init("to", .optional(row[1])),
          .init("kind", .optional(row[2])), .init("subject", .optional(row[3])),
          .init("otp", .optional(row[4])), .init("token_hash", .optional(row[5])),
          .init("link", .optional(row[6])), .init("sent_at", .optional(row[7])),
          .init("text", .optional(row[8])),
        ])
      }
      return .json(status: 200, .array(messages))
    } catch let failure as AuthFailure {
      return format.response(failure)
    } catch {
      return format.response(
        AuthFailure(status: 500, code: "unexpected_failure", message: "Internal server error"))
    }
  }
}
