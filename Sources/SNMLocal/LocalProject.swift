/// The local Supabase-compatible project: Postgres cluster, REST and Auth gateways.
public enum LocalProject {}
