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
  func clientKey() throws(UsageError) -> (name: String, value: String)? {
    guard let found = key else { return nil }
    if Self.clientKeyVariables.contains(found.name),
      let refusal = Self.serverKeyRefusal(
        found.value, at: "$\(found.name)",
        advice: "set it to the publishable (or anon) key, or, to run as service_role on purpose, "
          + "set SUPABASE_SECRET_KEY instead or pass --key")
    {
      throw refusal
    }
    return found
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

  var serviceKey: String? {
    ProjectSelection.serviceKeyVariables.lazy.compactMap { Self.nonEmpty(environment[$0]) }.first
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
