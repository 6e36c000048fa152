import SNMSupabase

/// The project the environment names (``ProjectChoice`` reads it): `SUPABASE_URL`, the first key variable set, the service key.
struct EnvironmentProject {
  var environment: [String: String]

  var url: String? { Self.nonEmpty(environment["SUPABASE_URL"]) }

  /// The first of ``ProjectSelection/keyVariables`` that is set, with its name.
  var key: (name: String, value: String)? {
    for name in ProjectSelection.keyVariables {
      if let value = Self.nonEmpty(environment[name]) { return (name, value) }
    }
    return nil
  }

  /// ``key`` for a run that takes its key from the environment, refused when a client key's
  /// variable (`SUPABASE_PUBLISHABLE_KEY`, `SUPABASE_ANON_KEY`) holds a server key: an
  /// `sb_secret_` key or a legacy `service_role` JWT there would run every request as
  /// service_role, past row-level security, where the job asked for the client's role (a smoke
  /// script proving a policy would pass that should fail).
  /// - Throws: `UsageError` naming the variable and what to do.
  ///
  /// A server key's variable (`SUPABASE_SECRET_KEY`, `SUPABASE_SERVICE_ROLE_KEY`) holding a
  /// client key is refused alike (``serverKey(_:)``), and so is a server key's variable chosen
  /// past a client key's that is set but empty: a CI service fills a variable from a secret that
  /// is missing with nothing, and the job then ran as service_role and passed what it meant to
  /// prove as anon.
  func clientKey() throws(UsageError) -> (name: String, value: String)? {
    guard let found = key else { return nil }
    if !Self.clientKeyVariables.contains(found.name),
      let empty = ProjectSelection.keyVariables.first(where: {
        Self.clientKeyVariables.contains($0) && environment[$0]?.isEmpty == true
      })
    {
      throw UsageError(
        "$\(empty) is set but empty (a CI secret that is missing?), so the key would come from "
          + "$\(found.name) and run as service_role, past row-level security, where the job "
          + "named the client's key: set $\(empty) to the publishable (or anon) key, or unset it "
          + "to run as service_role on purpose")
    }
    if Self.clientKeyVariables.contains(found.name),
      let refusal = Self.serverKeyRefusal(
        found.value, at: "$\(found.name)",
        advice: "set it to the publishable (or anon) key, or, to run as service_role on purpose, "
          + "set SUPABASE_SECRET_KEY instead or pass --key")
    {
      throw refusal
    }
    return (found.name, try Self.serverKey(found))
  }

  /// The refusal of a server key (`sb_secret_`, a legacy `service_role` JWT, as a server reads
  /// it: ``SupabaseAPIKey``) found at `place`, where the client's key belongs (a client key's
  /// variable, a profile's `publishable_key` or `anon_key`), with `advice`; nil for any other key.
  static func serverKeyRefusal(_ key: String, at place: String, advice: String) -> UsageError? {
    guard SupabaseAPIKey(key).role == "service_role" else { return nil }
    return UsageError(
      "\(place) holds a server key (role service_role, which bypasses row-level security), not "
        + "the project's client key: \(advice)")
  }

  /// The variables meant for the client's key (role anon).
  static let clientKeyVariables: Set = ["SUPABASE_PUBLISHABLE_KEY", "SUPABASE_ANON_KEY"]

  /// The service key (`as service`, `admin`): `flag` (`--service-key`, whose client key
  /// ``ProjectChoice/resolve(_:environment:)`` refused) when set, else the first of ``ProjectSelection/serviceKeyVariables`` set.
  /// - Throws: `UsageError` when that variable holds a client key (``serverKey(_:)``).
  func serviceKey(after flag: String?) throws(UsageError) -> String? {
    if let flag { return flag }
    for name in ProjectSelection.serviceKeyVariables {
      if let value = Self.nonEmpty(environment[name]) { return try Self.serverKey((name, value)) }
    }
    return nil
  }

  /// `found`'s value, refused when a server key's variable holds a client key: an
  /// `sb_publishable_` key or a legacy `anon` JWT in `SUPABASE_SECRET_KEY` ran `as service`
  /// statements as anon, under row-level security, where the job asked to pass it (a cleanup that
  /// deletes nothing, a count of the rows one user sees), and exited 0.
  /// - Throws: `UsageError` naming the variable and what to do.
  /// Any key's variable holding a control character is refused too (``controlRefusal(_:at:)``).
  static func serverKey(_ found: (name: String, value: String)) throws(UsageError) -> String {
    if let refusal = controlRefusal(found.value, at: "$\(found.name)") { throw refusal }
    guard !clientKeyVariables.contains(found.name),
      let refusal = clientKeyRefusal(
        found.value, at: "$\(found.name)",
        advice: "set it to the secret (or service_role) key, or, to run as anon, set "
          + "SUPABASE_PUBLISHABLE_KEY instead")
    else { return found.value }
    throw refusal
  }

  /// The refusal of a client key (``isClientKey(_:)``) found at `place`, where the server's key
  /// belongs (a server key's variable, a profile's `secret_key` or `service_key`), with `advice`;
  /// nil for any other key. The mirror of ``serverKeyRefusal(_:at:advice:)``.
  /// The role it names is the key's (`role authenticated` for a signed-in user's JWT, escaped),
  /// or says a JWT's could not be read (no `role` claim, or not a string); never the key.
  static func clientKeyRefusal(_ key: String, at place: String, advice: String) -> UsageError? {
    guard isClientKey(key) else { return nil }
    // The blanks SupabaseAPIKey drops are outside the JWT's payload: its claims read alike.
    let kind = SupabaseAPIKey(key)
    let role =
      (kind.kind == .legacyJWT ? AccessTokenClaims(jwt: key).role : kind.role).map {
        "role \(VisibleText.escaped($0))"
      } ?? "a JWT whose role could not be read, taken as anon"
    return UsageError(
      "\(place) holds a client key (\(role), which row-level security applies to), not the "
        + "project's server key: \(advice)")
  }

  /// The refusal of a key found at `place` (`--key`, `$SUPABASE_ANON_KEY`, a profile's field)
  /// that holds a control character (NUL, ESC, DEL, any C0 but tab, LF and CR), nil for any
  /// other key. A key goes into every request's `apikey` header (and a JWT-shaped one into
  /// `Authorization`), where such a byte was sent raw over http:// (NUL from a profile's JSON,
  /// `"\u0000"`): never sent, as a session's token holding one is never sent. A line break is
  /// left to the header's encoder, which makes it a space on every transport, so a secret saved
  /// with its newline (`echo KEY > secret`) goes as the key (test_ci_shoes). The character is
  /// named by its escape and its place in the key, never the key.
  static func controlRefusal(_ key: String, at place: String) -> UsageError? {
    let tab: UInt8 = 0x09
    let found = key.utf8.firstIndex { byte in
      (byte < 0x20 && byte != tab && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }
    guard let found else { return nil }
    let byte = key.utf8[found]
    let position = key.utf8.distance(from: key.utf8.startIndex, to: found) + 1
    let shown = VisibleText.escaped(String(Unicode.Scalar(byte)))
    return UsageError(
      "\(place) holds a control character (\(shown), byte \(position) of \(key.utf8.count)), "
        + "which no request header may carry: nothing is sent with it; write the key alone, as "
        + "the project's API settings show it")
  }

  /// Whether `key` is a client's for certain: `sb_publishable_`, or a legacy JWT whose role is
  /// not service_role (a custom gateway's key may be either, and is taken).
  static func isClientKey(_ key: String) -> Bool {
    let kind = SupabaseAPIKey(key)
    return kind.kind == .publishable || (kind.kind == .legacyJWT && kind.role != "service_role")
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
