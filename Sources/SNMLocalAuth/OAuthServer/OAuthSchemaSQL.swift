/// The OAuth 2.1 server's registered clients, in GoTrue's table and types (`auth.oauth_clients`,
/// as its migrations up to `add_token_endpoint_auth_method` leave it): the client id is the row's
/// id, a confidential client's secret is kept only as its SHA-256 (base64url), the redirect URIs
/// and grant types as comma-joined text, a deleted client stays with its `deleted_at`
/// (``OAuthClientStore``). No API role may read it (the `auth` schema grants usage only).
package enum OAuthSchemaSQL {
  package static let version = "snm_auth_10_oauth_clients"

  package static let script = """
    do $$ begin
      create type auth.oauth_registration_type as enum ('dynamic', 'manual');
    exception when duplicate_object then null;
    end $$;
    do $$ begin
      create type auth.oauth_client_type as enum ('public', 'confidential');
    exception when duplicate_object then null;
    end $$;
    create table if not exists auth.oauth_clients (
      id uuid not null,
      client_secret_hash text,
      registration_type auth.oauth_registration_type not null,
      redirect_uris text not null,
      grant_types text not null,
      client_name text,
      client_uri text,
      logo_uri text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      client_type auth.oauth_client_type not null default 'confidential',
      token_endpoint_auth_method text not null check (token_endpoint_auth_method in
        ('client_secret_basic', 'client_secret_post', 'none')),
      constraint oauth_clients_pkey primary key (id),
      constraint oauth_clients_client_name_length check (char_length(client_name) <= 1024),
      constraint oauth_clients_client_uri_length check (char_length(client_uri) <= 2048),
      constraint oauth_clients_logo_uri_length check (char_length(logo_uri) <= 2048)
    );
    create index if not exists oauth_clients_deleted_at_idx on auth.oauth_clients (deleted_at);
    """
}
