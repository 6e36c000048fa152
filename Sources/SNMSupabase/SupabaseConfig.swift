import SNMNetwork

/// Where a Supabase project lives and which API key speaks for the client.
public struct SupabaseConfig: Sendable, Equatable {
  public var url: String
  public var anonKey: String

  public init(url: String, anonKey: String) {
    self.url = url
    self.anonKey = anonKey
  }
}
