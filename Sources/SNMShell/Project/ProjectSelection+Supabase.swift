import SNMSupabase

extension ProjectSelection {
  /// The project as the Supabase layer takes it.
  public var supabaseConfig: SupabaseConfig {
    SupabaseConfig(url: url.absoluteString, anonKey: key)
  }
}
