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
      if !address.contains("@"), let phone = try? PhoneNumber.normalized(address) {
        address = phone
      }
      var limit = 50
      if let text = request.queryValue("limit") {
        guard let value = Int(text), value >= 1 else {
          throw AuthFailure.validationFailed("limit must be a positive number")
        }
        limit = min(value, 1000)
      }
      let found = try pool.withConnection { connection in
        try InboxStore(connection).messages(to: address, limit: limit)
      }
      let messages: [JSONValue] = found.map { message in
        .object([
          .init("id", .optional(message.id)), .init("to", .optional(message.recipient)),
          .init("kind", .optional(message.kind)), .init("subject", .optional(message.subject)),
          .init("otp", .optional(message.otp)), .init("token_hash", .optional(message.tokenHash)),
          .init("link", .optional(message.link)), .init("sent_at", .optional(message.sentAt)),
          .init("text", .optional(message.body)),
        ])
      }
      return .json(status: 200, .array(messages))
    } catch let failure as AuthFailure {
      return format.response(failure)
    } catch {
      return format.response(.internalError)
    }
  }
}
