import SNMWire

/// One auth.users row in the shape the JSON needs.
struct AuthUserRow: Sendable {
  var id: String
  var email: String
  var phone: String
  var isAnonymous: Bool
  var appMetadata: JSONValue
  var userMetadata: JSONValue
  var createdAt: String
  var updatedAt: String
  var lastSignInAt: String?
  var emailConfirmedAt: String?
  var confirmationSentAt: String?
  var recoverySentAt: String?
  var newEmail: String
  var emailChangeSentAt: String?
  var invitedAt: String?
  var bannedUntil: String?
  var deletedAt: String?
  var reauthenticationSentAt: String?
  /// Whether `banned_until` lies in the future.
  var isBanned: Bool
  var phoneConfirmedAt: String?
  var factors: [JSONValue] = []
  /// The identities kept in `auth.identities` (an id_token sign-in's), in GoTrue's JSON.
  var linkedIdentities: [JSONValue] = []
}

extension AuthUserRow {
  /// The columns `init?(_:)` reads, of `auth.users u`.
  static var columns: String {
    "u.id::text, coalesce(u.email, ''), coalesce(u.phone, ''), u.is_anonymous::text, "
      + "u.raw_app_meta_data::text, u.raw_user_meta_data::text, \(AuthStore.iso("u.created_at")), "
      + "\(AuthStore.iso("u.updated_at")), \(AuthStore.iso("u.last_sign_in_at")), \(AuthStore.iso("u.email_confirmed_at")), "
      + "\(AuthStore.iso("u.confirmation_sent_at")), \(AuthStore.iso("u.recovery_sent_at")), u.email_change, "
      + "\(AuthStore.iso("u.email_change_sent_at")), \(AuthStore.iso("u.invited_at")), \(AuthStore.iso("u.banned_until")), "
      + "\(AuthStore.iso("u.deleted_at")), \(AuthStore.iso("u.reauthentication_sent_at")), "
      + "coalesce(u.banned_until > now(), false)::text, \(AuthStore.iso("u.phone_confirmed_at")), "
      + "(select jsonb_agg(jsonb_build_object('identity_id', i.id, 'id', i.provider_id, "
      + "'user_id', i.user_id, 'identity_data', i.identity_data, 'provider', i.provider, "
      + "'last_sign_in_at', \(AuthStore.iso("i.last_sign_in_at")), "
      + "'created_at', \(AuthStore.iso("i.created_at")), "
      + "'updated_at', \(AuthStore.iso("i.updated_at")), 'email', i.email) "
      + "order by i.created_at) from auth.identities i where i.user_id = u.id)::text"
  }

  static let columnCount = 21

  /// A row of `columns`, or nil when it has not their count.
  init?(_ row: [String?]) {
    guard row.count >= Self.columnCount, let id = row[0] else { return nil }
    self.init(
      id: id, email: row[1] ?? "", phone: row[2] ?? "", isAnonymous: row[3] == "true",
      appMetadata: Self.objectOrEmpty(row[4]), userMetadata: Self.objectOrEmpty(row[5]),
      createdAt: row[6] ?? "", updatedAt: row[7] ?? "", lastSignInAt: row[8],
      emailConfirmedAt: row[9], confirmationSentAt: row[10], recoverySentAt: row[11],
      newEmail: row[12] ?? "", emailChangeSentAt: row[13], invitedAt: row[14],
      bannedUntil: row[15], deletedAt: row[16], reauthenticationSentAt: row[17],
      isBanned: row[18] == "true", phoneConfirmedAt: row[19],
      linkedIdentities: row[20].flatMap { try? JSONValue(parsing: $0) }?.arrayValue ?? [])
  }

  /// A stored metadata object; anything else (an older snm stored `null` for `"data": null`) as
  /// `{}`, which GoTrue's clients expect.
  static func objectOrEmpty(_ text: String?) -> JSONValue {
    guard let text, let value = try? JSONValue(parsing: text), value.objectValue != nil else {
      return .object([])
    }
    return value
  }
}
