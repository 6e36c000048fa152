/// What the account flows keep beyond sign-in, in GoTrue's column and table names: the one-time
/// tokens on `auth.users` (stored as GoTrue stores them, the SHA-256 of e-mail + code), TOTP
/// factors and challenges, the session's extra `amr` entries, and the local inbox, in snm's own
/// schema `snm_local`, which no API role may read (PostgREST cannot serve it).
package enum AuthSchemaSQL {
  package static let version = "snm_auth_3_flows"

  package static let script = """
    alter table auth.users
      add column if not exists confirmation_token text not null default '',
      add column if not exists confirmation_sent_at timestamptz,
      add column if not exists recovery_token text not null default '',
      add column if not exists recovery_sent_at timestamptz,
      add column if not exists email_change_token_new text not null default '',
      add column if not exists email_change text not null default '',
      add column if not exists email_change_sent_at timestamptz,
      add column if not exists email_change_token_current text not null default '',
      add column if not exists email_change_confirm_status smallint not null default 0,
      add column if not exists reauthentication_token text not null default '',
      add column if not exists reauthentication_sent_at timestamptz,
      add column if not exists invited_at timestamptz,
      add column if not exists is_sso_user boolean not null default false;

    create table if not exists auth.mfa_factors (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth.users (id) on delete cascade,
      friendly_name text not null default '',
      factor_type text not null default 'totp',
      status text not null default 'unverified',
      secret text not null,
      last_challenged_at timestamptz,
      last_totp_step bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);

    create table if not exists auth.mfa_challenges (
      id uuid primary key default gen_random_uuid(),
      factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
      ip_address text not null default '',
      created_at timestamptz not null default now(),
      verified_at timestamptz
    );

    create table if not exists auth.mfa_amr_claims (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references auth.sessions (id) on delete cascade,
      authentication_method text not null,
      created_at timestamptz not null default now(),
      unique (session_id, authentication_method)
    );
    alter table auth.sessions add column if not exists factor_id uuid;

    create schema if not exists snm_local;
    revoke all on schema snm_local from public;
    create table if not exists snm_local.inbox (
      id uuid primary key default gen_random_uuid(),
      recipient text not null,
      kind text not null,
      subject text not null,
      otp text,
      token_hash text,
      link text,
      body text not null,
      sent_at timestamptz not null default clock_timestamp()
    );
    create index if not exists inbox_recipient_idx on snm_local.inbox (lower(recipient), sent_at desc);
    """

  /// The phone provider: one user a number (GoTrue's `users_phone_key`), kept as digits.
  package static let phoneVersion = "snm_auth_4_phone"

  package static let phoneScript = """
    create unique index if not exists users_phone_key on auth.users (phone)
      where phone is not null and phone <> '';
    """

  /// Wrong guesses at a code or a factor, counted whatever address they come from: a user's
  /// pending e-mail or SMS codes are spent after a few wrong ones, a TOTP factor is locked for a
  /// while (``AuthGuessLimits``).
  package static let guessesVersion = "snm_auth_5_guesses"

  package static let guessesScript = """
    create table if not exists snm_local.code_failures (
      user_id uuid primary key references auth.users (id) on delete cascade,
      failures integer not null default 0,
      first_failed_at timestamptz not null default now()
    );
    create table if not exists snm_local.factor_failures (
      factor_id uuid primary key references auth.mfa_factors (id) on delete cascade,
      failures integer not null default 0,
      first_failed_at timestamptz not null default now(),
      locked_until timestamptz
    );
    """

  /// PKCE flow states, in GoTrue's table: a flow started with a `code_challenge` waits here for
  /// its auth code and verifier (``FlowStateStore``).
  package static let flowStateVersion = "snm_auth_6_flow_state"

  package static let flowStateScript = """
    create table if not exists auth.flow_state (
      id uuid primary key default gen_random_uuid(),
      user_id uuid references auth.users (id) on delete cascade,
      auth_code text not null,
      code_challenge_method text not null,
      code_challenge text not null,
      provider_type text not null,
      provider_access_token text,
      provider_refresh_token text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      authentication_method text not null,
      auth_code_issued_at timestamptz
    );
    create index if not exists idx_auth_code on auth.flow_state (auth_code);
    create index if not exists idx_user_id_auth_method on auth.flow_state (user_id, authentication_method);
    """

  /// External identities, in GoTrue's table: an id_token sign-in's provider and subject, linked
  /// to its user (``IdentityStore``).
  package static let identitiesVersion = "snm_auth_7_identities"

  package static let identitiesScript = """
    create table if not exists auth.identities (
      provider_id text not null,
      user_id uuid not null references auth.users (id) on delete cascade,
      identity_data jsonb not null,
      provider text not null,
      last_sign_in_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      email text generated always as (lower(identity_data ->> 'email')) stored,
      id uuid primary key default gen_random_uuid(),
      unique (provider_id, provider)
    );
    create index if not exists identities_user_id_idx on auth.identities (user_id);
    """

  /// Where an OAuth provider's flow sends the browser at its end (GoTrue's
  /// `flow_state.referrer`), kept from `/authorize` until the provider calls back.
  package static let flowReferrerVersion = "snm_auth_8_flow_state_referrer"

  package static let flowReferrerScript = """
    alter table auth.flow_state add column if not exists referrer text;
    """

  /// The test issuer's tokens already used (``SpentTokenStore``): an Apple id_token or its nonce,
  /// a GitHub code, each by its SHA-256 until its expiry, so none signs in twice.
  package static let spentTokensVersion = "snm_auth_9_spent_tokens"

  package static let spentTokensScript = """
    create table if not exists auth.snm_spent_tokens (
      digest text primary key,
      expires_at timestamptz not null
    );
    """
}
