import SNMGateway

/// Every SQL statement about the codes of the account flows, kept as hashes on the user's row
/// (GoTrue's `confirmation_token`, `recovery_token`, `email_change_token_*`,
/// `reauthentication_token`): setting one as its mail or text goes, finding and spending one as
/// it comes back, and the e-mail change it may complete. Named operations on the caller's
/// transaction, values only as parameters; wrong codes are counted by `AuthStore`
/// (`recordWrongCode`).
///
/// ```swift
/// let codes = FlowTokenStore(connection)
/// try codes.setCode(.recovery, userID: user.id, hash: hash)
/// let found = try codes.pendingCode(type: "recovery", hash: hash, email: nil, expiry: 3600)
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct FlowTokenStore: AuthSQLStore {
  let connection: PGConnection

  /// A pending code found by its hash: whose it is, and the type it verifies as (`email`
  /// resolves to `signup` or `magiclink`).
  struct PendingCode: Equatable {
    var userID: String
    var type: String
  }

  /// Where a pending e-mail change stands when one of its codes comes back.
  struct EmailChangeState: Equatable {
    /// Neither address has confirmed yet.
    var isUnconfirmed: Bool
    /// The code is the current address's (else the new one's).
    var isCurrentAddressCode: Bool
    /// The user has a current address (an anonymous user changing to one has none).
    var hasEmail: Bool
  }

  /// Keeps `hash` as the user's pending code of `kind` (its column, `AuthMailKind.columns`),
  /// sent now; a code of that kind sent before no longer holds.
  func setCode(_ kind: AuthMailKind, userID: String, hash: String) throws {
    let (token, sentAt) = kind.columns
    _ = try connection.execute(
      "update auth.users set \(token) = $2, \(sentAt) = now() where id = $1::uuid",
      [userID, hash])
  }

  /// Keeps `hash` as the user's texted code (the confirmation code's column, as GoTrue keeps
  /// it), sent now.
  func setPhoneCode(userID: String, hash: String) throws {
    try setCode(.signup, userID: userID, hash: hash)
  }

  /// Seconds until the user may be texted again when the last code went less than `frequency`
  /// seconds ago (at least part of a second rounds up), else nil.
  func secondsUntilNextText(userID: String, frequency: Int) throws -> Int? {
    let recent = try connection.execute(
      "select ceil(extract(epoch from confirmation_sent_at + make_interval(secs => $2::int) "
        + "- now()))::int::text from auth.users where id = $1::uuid "
        + "and confirmation_sent_at > now() - make_interval(secs => $2::int)",
      [userID, String(frequency)])
    return recent.scalar.flatMap(Int.init)
  }

  /// Whether `hash` is the user's texted code, sent less than `expiry` seconds ago; locks the
  /// user's row until the transaction ends.
  func isPhoneCodeValid(userID: String, hash: String, expiry: Int) throws -> Bool {
    let valid = try connection.execute(
      "select 1 from auth.users where id = $1::uuid and confirmation_token = $2 "
        + "and $2 <> '' and confirmation_sent_at > now() - make_interval(secs => $3::int) "
        + "for update", [userID, hash, String(expiry)])
    return valid.scalar != nil
  }

  /// A right texted code: spent, the number confirmed (when it was not), the user signed in.
  func confirmPhoneSignIn(userID: String) throws {
    _ = try connection.execute(
      "update auth.users set confirmation_token = '', last_sign_in_at = now(), "
        + "phone_confirmed_at = coalesce(phone_confirmed_at, now()), updated_at = now() "
        + "where id = $1::uuid", [userID])
  }

  /// Spends the user's reauthentication code when `hash` is it and it was sent less than
  /// `expiry` seconds ago; whether it was.
  func useReauthenticationCode(userID: String, hash: String, expiry: Int) throws -> Bool {
    let used = try connection.execute(
      "update auth.users set reauthentication_token = '' where id = $1::uuid "
        + "and reauthentication_token = $2 and reauthentication_token <> '' "
        + "and reauthentication_sent_at > now() - make_interval(secs => $3::int) returning 1",
      [userID, hash, String(expiry)])
    return !used.rows.isEmpty
  }

  /// The user whose pending code of `type` (a `POST /verify` type) has hash `hash`, sent less
  /// than `expiry` seconds ago, and (for a code sent with the address) whose address is
  /// `email` (the new address for the new address's e-mail change code), locked for the
  /// update; nil when there is none.
  func pendingCode(type: String, hash: String, email: String?, expiry: Int) throws
    -> PendingCode?
  {
    let candidates: [(column: String, sentAt: String, type: String)]
    switch type {
    case "signup", "invite":
      candidates = [("confirmation_token", "confirmation_sent_at", type)]
    case "magiclink", "recovery":
      candidates = [("recovery_token", "recovery_sent_at", type)]
    case "email":
      candidates = [
        ("confirmation_token", "confirmation_sent_at", "signup"),
        ("recovery_token", "recovery_sent_at", "magiclink"),
      ]
    case "email_change":
      candidates = [
        ("email_change_token_current", "email_change_sent_at", type),
        ("email_change_token_new", "email_change_sent_at", type),
      ]
    default:
      return nil
    }
    for candidate in candidates {
      var sql =
        "select id::text from auth.users where \(candidate.column) = $1 and $1 <> '' "
        + "and \(candidate.sentAt) > now() - make_interval(secs => $2::int) and deleted_at is null"
      var parameters: [String?] = [hash, String(expiry)]
      if let email {
        sql +=
          candidate.column == "email_change_token_new"
          ? " and lower(email_change) = lower($3)" : " and lower(email) = lower($3)"
        parameters.append(email)
      }
      let found = try connection.execute(sql + " for update", parameters)
      if let id = found.scalar { return PendingCode(userID: id, type: candidate.type) }
    }
    return nil
  }

  /// A right code of a sign-up or an invite: spent, and the address confirmed.
  func useConfirmationCode(userID: String) throws {
    _ = try connection.execute(
      "update auth.users set confirmation_token = '', "
        + "email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() "
        + "where id = $1::uuid", [userID])
  }

  /// A right code of a magic link or a recovery: spent, and the address confirmed.
  func useRecoveryCode(userID: String) throws {
    _ = try connection.execute(
      "update auth.users set recovery_token = '', "
        + "email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() "
        + "where id = $1::uuid", [userID])
  }

  /// Records a pending change of the user's address to `newEmail` (lowercased), as a user asks
  /// for it: neither address confirmed, the current address's old code spent.
  func beginEmailChange(userID: String, to newEmail: String) throws {
    _ = try connection.execute(
      "update auth.users set email_change = lower($2), email_change_confirm_status = 0, "
        + "email_change_token_current = '', updated_at = now() where id = $1::uuid",
      [userID, newEmail])
  }

  /// Records a pending change to `newEmail` (lowercased) for an admin's generated link: neither
  /// address confirmed; codes and `updated_at` as they were.
  func noteEmailChange(userID: String, to newEmail: String) throws {
    _ = try connection.execute(
      "update auth.users set email_change = lower($2), email_change_confirm_status = 0 "
        + "where id = $1::uuid", [userID, newEmail])
  }

  /// Where the user's pending e-mail change stands, `hash` being the code that came back; nil
  /// for no such user.
  func emailChangeState(userID: String, hash: String) throws -> EmailChangeState? {
    let state = try connection.execute(
      "select email_change_confirm_status::text, email_change_token_current = $2, "
        + "coalesce(email, '') <> '' from auth.users where id = $1::uuid", [userID, hash])
    guard let row = state.rows.first, row.count == 3 else { return nil }
    return EmailChangeState(
      isUnconfirmed: row[0] == "0", isCurrentAddressCode: row[1] == "t", hasEmail: row[2] == "t")
  }

  /// One address of a doubly confirmed change has confirmed: its code (the current address's
  /// when `currentAddress`, else the new one's) is spent, the other still pending.
  func confirmHalfOfEmailChange(userID: String, currentAddress: Bool) throws {
    let column = currentAddress ? "email_change_token_current" : "email_change_token_new"
    _ = try connection.execute(
      "update auth.users set email_change_confirm_status = 1, \(column) = '' "
        + "where id = $1::uuid", [userID])
  }

  /// The change is confirmed: the new address becomes the user's (confirmed), both codes spent.
  func completeEmailChange(userID: String) throws {
    _ = try connection.execute(
      "update auth.users set email = email_change, email_change = '', "
        + "email_change_token_new = '', email_change_token_current = '', "
        + "email_change_confirm_status = 0, email_confirmed_at = now(), updated_at = now() "
        + "where id = $1::uuid", [userID])
  }
}
