import SNMSupabase

extension ProjectSelection {
  /// The project as the Supabase layer takes it.
  public var supabaseConfig: SupabaseConfig {
    SupabaseConfig(url: url.absoluteString, anonKey: key)
  }

  /// The role requests run as when no one is signed in: `anon` for a publishable or anon key,
  /// `service_role` for a secret or service_role key (SupabaseAPIKey; an `sb_` key is never decoded).
  public var keyRole: String { SupabaseAPIKey(key).role }
}
