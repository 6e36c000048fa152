import SNMWire

/// How many wrong guesses a code or a factor takes, whatever address they come from (the rate
/// limits are per address; a code of six digits must not fall to many addresses either): a
/// user's pending codes (e-mail and SMS) are spent after `codeTries` wrong ones against their
/// address or number, and a TOTP factor is locked for `factorLockSeconds` after `factorTries`
/// wrong codes. Wrong tries older than `window` are forgotten; a right one forgets them all.
enum AuthGuessLimits {
  static let codeTries = 5
  static let factorTries = 5
  static let factorLockSeconds = 300
  static let window = 3600

  static let factorLocked = AuthFailure(
    status: 429, code: "over_request_rate_limit",
    message:
      "Too many wrong codes for this factor: it is locked for \(factorLockSeconds / 60) minutes")
}

extension AuthGateway {
  /// Counts a wrong code sent with an e-mail `address` (current or pending) against its user;
  /// at the limit every pending code of theirs is spent (the right one then fails too) and the
  /// count starts again.
  func recordWrongCode(address: String, on connection: PGConnection) throws {
    try recordWrongCode(
      matching:
        "lower(email) = lower($1) or (email_change <> '' and lower(email_change) = lower($1))",
      address, on: connection)
  }

  /// The same for a user known by id (a code sent to their phone).
  func recordWrongCode(userID: String, on connection: PGConnection) throws {
    try recordWrongCode(matching: "id = $1::uuid", userID, on: connection)
  }

  private func recordWrongCode(
    matching condition: String, _ value: String, on connection: PGConnection
  )
    throws
  {
    let spent = try connection.execute(
      """
      with target as (
        select id from auth.users where deleted_at is null and (\(condition))
      ), counted as (
        insert into snm_local.code_failures as f (user_id, failures, first_failed_at)
        select id, 1, now() from target
        on conflict (user_id) do update set
          failures = case when f.first_failed_at < now() - make_interval(secs => $3::int)
            then 1 else f.failures + 1 end,
          first_failed_at = case when f.first_failed_at < now() - make_interval(secs => $3::int)
            then now() else f.first_failed_at end
        returning user_id, failures
      )
      select user_id::text from counted where failures >= $2::int
      """, [value, String(AuthGuessLimits.codeTries), String(AuthGuessLimits.window)])
    for row in spent.rows {
      guard let id = row.first ?? nil else { continue }
      _ = try connection.execute(
        "update auth.users set confirmation_token = '', recovery_token = '', "
          + "email_change_token_new = '', email_change_token_current = '', "
          + "reauthentication_token = '' where id = $1::uuid", [id])
      try forgetWrongCodes(userID: id, on: connection)
    }
  }

  /// A right code: the user's wrong ones are forgotten.
  func forgetWrongCodes(userID: String, on connection: PGConnection) throws {
    _ = try connection.execute(
      "delete from snm_local.code_failures where user_id = $1::uuid", [userID])
  }

  /// Refuses a factor locked by wrong codes (429), before its code is looked at.
  func checkFactorLock(_ factorID: String, on connection: PGConnection) throws {
    let locked = try connection.execute(
      "select 1 from snm_local.factor_failures where factor_id = $1::uuid "
        + "and locked_until > now()", [factorID])
    if !locked.rows.isEmpty { throw AuthGuessLimits.factorLocked }
  }

  /// Counts a wrong code for a factor; at the limit it is locked for a while.
  func recordWrongFactorCode(_ factorID: String, on connection: PGConnection) throws {
    _ = try connection.execute(
      """
      insert into snm_local.factor_failures as f (factor_id, failures, first_failed_at)
      values ($1::uuid, 1, now())
      on conflict (factor_id) do update set
        failures = case when f.first_failed_at < now() - make_interval(secs => $2::int)
          or f.locked_until is not null then 1 else f.failures + 1 end,
        first_failed_at = case when f.first_failed_at < now() - make_interval(secs => $2::int)
          or f.locked_until is not null then now() else f.first_failed_at end,
        locked_until = null
      """, [factorID, String(AuthGuessLimits.window)])
    _ = try connection.execute(
      "update snm_local.factor_failures set locked_until = now() + make_interval(secs => $3::int) "
        + "where factor_id = $1::uuid and failures >= $2::int",
      [factorID, String(AuthGuessLimits.factorTries), String(AuthGuessLimits.factorLockSeconds)])
  }

  /// A right code: the factor's wrong ones are forgotten.
  func forgetWrongFactorCodes(_ factorID: String, on connection: PGConnection) throws {
    _ = try connection.execute(
      "delete from snm_local.factor_failures where factor_id = $1::uuid", [factorID])
  }
}
