/// The `storage` schema every project gets, as Supabase Storage's migrations leave it: the
/// `buckets` and `objects` tables (RLS enabled, no policies: a project writes its own), the
/// helpers policies call (`storage.foldername`, `filename`, `extension`, `operation`), the listing
/// function `storage.search`, and the guards (bucket name length, no direct deletes).
/// Runs once per cluster after the bootstrap, recorded as version `snm_storage_1`.
///
/// The bytes of an object live in the project's data dir under `storage/objects/<version>`; the
/// row's `version` names the file, so an object's name never becomes a path on disk.
package enum StorageSchemaSQL {
  package static let version = "snm_storage_1"

  package static let script = """
    create schema if not exists storage;
    grant usage on schema storage to anon, authenticated, service_role;
    alter default privileges in schema storage grant all on tables to anon, authenticated, service_role;
    alter default privileges in schema storage grant all on functions to anon, authenticated, service_role;
    alter default privileges in schema storage grant all on sequences to anon, authenticated, service_role;

    do $types$ begin
      if not exists (
        select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where t.typname = 'buckettype' and n.nspname = 'storage'
      ) then
        create type storage.buckettype as enum ('STANDARD', 'ANALYTICS');
      end if;
    end $types$;

    create table if not exists storage.buckets (
      id text not null primary key,
      name text not null,
      owner uuid,
      created_at timestamptz default now(),
      updated_at timestamptz default now(),
      public boolean default false,
      avif_autodetection boolean default false,
      file_size_limit bigint,
      allowed_mime_types text[],
      owner_id text,
      type storage.buckettype not null default 'STANDARD'
    );
    comment on column storage.buckets.owner is 'Field is deprecated, use owner_id instead';
    create unique index if not exists bname on storage.buckets using btree (name);

    create table if not exists storage.objects (
      id uuid not null default gen_random_uuid() primary key,
      bucket_id text constraint "objects_bucketId_fkey" references storage.buckets (id),
      name text,
      owner uuid,
      created_at timestamptz default now(),
      updated_at timestamptz default now(),
      last_accessed_at timestamptz default now(),
      metadata jsonb,
      path_tokens text[] generated always as (string_to_array(name, '/')) stored,
      version text,
      owner_id text,
      user_metadata jsonb
    );
    comment on column storage.objects.owner is 'Field is deprecated, use owner_id instead';
    create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
    create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);
    create index if not exists idx_objects_bucket_id_name on storage.objects (bucket_id, (name collate "C"));

    alter table storage.buckets enable row level security;
    alter table storage.objects enable row level security;
    grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

    -- Path helpers for policies: foldername('a/b/c.png') = {a,b}, filename = c.png, extension = png.
    create or replace function storage.foldername(name text) returns text[]
    language plpgsql immutable as $fn$
    declare _parts text[];
    begin
      select string_to_array(name, '/') into _parts;
      return _parts[1 : array_length(_parts, 1) - 1];
    end
    $fn$;

    create or replace function storage.filename(name text) returns text
    language plpgsql immutable as $fn$
    declare _parts text[];
    begin
      select string_to_array(name, '/') into _parts;
      return _parts[array_length(_parts, 1)];
    end
    $fn$;

    create or replace function storage.extension(name text) returns text
    language plpgsql immutable as $fn$
    declare _parts text[]; _filename text;
    begin
      select string_to_array(name, '/') into _parts;
      select _parts[array_length(_parts, 1)] into _filename;
      return reverse(split_part(reverse(_filename), '.', 1));
    end
    $fn$;

    -- The operation the request performs ('storage.object.upload', ...), for policies.
    create or replace function storage.operation() returns text
    language plpgsql stable as $fn$
    begin
      return current_setting('storage.operation', true);
    end
    $fn$;

    create or replace function storage.allow_only_operation(expected_operation text) returns boolean
    language sql stable as $fn$
      select coalesce(
        nullif(expected_operation, '') is not null
        and regexp_replace(storage.operation(), '^storage\\.', '')
          = regexp_replace(expected_operation, '^storage\\.', ''),
        false)
    $fn$;

    create or replace function storage.allow_any_operation(expected_operations text[]) returns boolean
    language sql stable as $fn$
      select exists (
        select 1 from unnest(expected_operations) as e
        where nullif(e, '') is not null
          and regexp_replace(storage.operation(), '^storage\\.', '')
            = regexp_replace(e, '^storage\\.', '')
      )
    $fn$;

    create or replace function storage.get_size_by_bucket()
    returns table (size bigint, bucket_id text) language plpgsql stable as $fn$
    begin
      return query
        select sum((metadata ->> 'size')::bigint) as size, obj.bucket_id
        from storage.objects as obj group by obj.bucket_id;
    end
    $fn$;

    -- The entries one level below `prefix` (a folder ending in '/', or ''), whose names start
    -- with prefix || search (case-insensitive): folders (id and dates null, name without the
    -- slash) and files, names relative to the prefix. Sorted by name (folders among files), or
    -- by a date with folders first. Runs as the caller, so RLS decides what is listed.
    create or replace function storage.search(
      prefix text, bucketname text, limits int default 100, levels int default 1,
      offsets int default 0, search text default '', sortcolumn text default 'name',
      sortorder text default 'asc'
    ) returns table (
      name text, id uuid, updated_at timestamptz, created_at timestamptz,
      last_accessed_at timestamptz, metadata jsonb
    ) language plpgsql stable security invoker as $fn$
    declare
      v_column text := lower(coalesce(sortcolumn, 'name'));
      v_order text := case when lower(coalesce(sortorder, 'asc')) = 'desc' then 'desc' else 'asc' end;
      v_prefix text := coalesce(prefix, '');
      v_start text := coalesce(prefix, '') || coalesce(search, '');
      v_keys text;
    begin
      if v_column not in ('name', 'updated_at', 'created_at', 'last_accessed_at') then
        v_column := 'name';
      end if;
      if v_column = 'name' then
        v_keys := format('lower(e.name) collate "C" %s', v_order);
      else
        v_keys := format('e.is_folder desc, case when e.is_folder then lower(e.name) end collate "C" %1$s, e.%2$I %1$s, lower(e.name) collate "C"', v_order, v_column);
      end if;
      return query execute format($sql$
        with matched as (
          select o.*, substr(o.name, length($1) + 1) as rest
          from storage.objects o
          where o.bucket_id = $2 and lower(left(o.name, length($3))) = lower($3)
        ),
        entries as (
          select split_part(m.rest, '/', 1) as name, null::uuid as id,
            null::timestamptz as updated_at, null::timestamptz as created_at,
            null::timestamptz as last_accessed_at, null::jsonb as metadata, true as is_folder
          from matched m where position('/' in m.rest) > 0
          group by split_part(m.rest, '/', 1)
          union all
          select m.rest, m.id, m.updated_at, m.created_at, m.last_accessed_at, m.metadata, false
          from matched m where position('/' in m.rest) = 0
        )
        select e.name, e.id, e.updated_at, e.created_at, e.last_accessed_at, e.metadata
        from entries e order by %s limit $4 offset $5
        $sql$, v_keys)
      using v_prefix, bucketname, v_start, least(greatest(coalesce(limits, 100), 0), 1500),
        greatest(coalesce(offsets, 0), 0);
    end
    $fn$;

    create or replace function storage.update_updated_at_column() returns trigger
    language plpgsql as $fn$
    begin
      new.updated_at = now();
      return new;
    end
    $fn$;
    drop trigger if exists update_objects_updated_at on storage.objects;
    create trigger update_objects_updated_at before update on storage.objects
      for each row execute function storage.update_updated_at_column();

    create or replace function storage.enforce_bucket_name_length() returns trigger
    language plpgsql as $fn$
    begin
      if length(new.name) > 100 then
        raise exception 'bucket name "%" is too long (% characters). Max is 100.', new.name, length(new.name);
      end if;
      return new;
    end
    $fn$;
    drop trigger if exists enforce_bucket_name_length_trigger on storage.buckets;
    create trigger enforce_bucket_name_length_trigger
      before insert or update of name on storage.buckets
      for each row execute function storage.enforce_bucket_name_length();

    -- Rows go through the Storage API, which also removes the bytes: a plain DELETE would leave
    -- them behind, so it is refused unless the API set storage.allow_delete_query.
    create or replace function storage.protect_delete() returns trigger
    language plpgsql as $fn$
    begin
      if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
        raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
          using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
      end if;
      return null;
    end
    $fn$;
    drop trigger if exists protect_buckets_delete on storage.buckets;
    create trigger protect_buckets_delete before delete on storage.buckets
      for each statement execute function storage.protect_delete();
    drop trigger if exists protect_objects_delete on storage.objects;
    create trigger protect_objects_delete before delete on storage.objects
      for each statement execute function storage.protect_delete();

    grant execute on all functions in schema storage to anon, authenticated, service_role;
    """
}
