extension AuthStore {
  /// Counts a wrong code sent with an e-mail `address` (current or pending) against its user;
  /// at the limit every pending code of theirs is spent (the right one then fails too) and the
  /// count starts again.
  func recordWrongCode(address: String) throws {
    try recordWrongCode(
      matching:
        "lower(email) = lower($1) or (email_change <> '' and lower(email_change) = lower($1))",
      address)
  }

  /// The same for a user known by id (a code sent to their phone).
  func recordWrongCode(userID: String) throws {
    try recordWrongCode(matching: "id = $1::uuid", userID)
  }

  private func recordWrongCode(matching condition: String, _ value: String) throws {
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
      try forgetWrongCodes(userID: id)
    }
  }

  /// A right code: the user's wrong ones are forgotten.
  func forgetWrongCodes(userID: String) throws {
    _ = try connection.execute(
      "delete from snm_local.code_failures where user_id = $1::uuid", [userID])
  }

  /// Whether wrong codes have locked the factor (`AuthGuessLimits.factorLocked`).
  func isFactorLocked(_ factorID: String) throws -> Bool {
    let locked = try connection.execute(
      "select 1 from snm_local.factor_failures where factor_id = $1::uuid "
        + "and locked_until > now()", [factorID])
    return !locked.rows.isEmpty
  }

  /// Counts a wrong code for a factor; at the limit it is locked for a while.
  func recordWrongFactorCode(_ factorID: String) throws {
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
  func forgetWrongFactorCodes(_ factorID: String) throws {
    _ = try connection.execute(
      "delete from snm_local.factor_failures where factor_id = $1::uuid", [factorID])
  }
}
