-- More domain representations, after PostgREST's documentation (Domain Representations) and what
-- its spec expects of them: formats in answers (whole rows, aliases, casts on top, embeds, views,
-- rpc rows), parsers for bodies (POST, PATCH, PUT, columns=) and for filter values, a domain with a
-- json cast but none from text, and a domain with no casts at all.

-- A timestamp written and read as ISO 8601 in UTC with a 'Z'; it has no cast from text, so a
-- filter's value is read as the base type.
create domain utc_stamp as timestamp with time zone;
create function utc_stamp(json) returns utc_stamp language sql immutable as $$
  select (replace($1 #>> '{}', 'Z', '+00'))::timestamptz $$;
create function json(utc_stamp) returns json language sql immutable as $$
  select to_json(to_char($1 at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) $$;
create cast (json as utc_stamp) with function utc_stamp(json) as implicit;
create cast (utc_stamp as json) with function json(utc_stamp) as implicit;

-- Bytes as base64 text, in bodies, answers and filters.
create domain base64_bytes as bytea;
create function base64_bytes(text) returns base64_bytes language sql immutable as $$
  select decode($1, 'base64') $$;
create function base64_bytes(json) returns base64_bytes language sql immutable as $$
  select decode($1 #>> '{}', 'base64') $$;
create function json(base64_bytes) returns json language sql immutable as $$
  select to_json(encode($1, 'base64')) $$;
create cast (text as base64_bytes) with function base64_bytes(text) as implicit;
create cast (json as base64_bytes) with function base64_bytes(json) as implicit;
create cast (base64_bytes as json) with function json(base64_bytes) as implicit;

-- Seconds since the epoch, a JSON number; the formatter decides what a null becomes (0 here).
create domain epoch_seconds as timestamp with time zone;
create function epoch_seconds(json) returns epoch_seconds language sql immutable as $$
  select to_timestamp(($1 #>> '{}')::numeric) $$;
create function epoch_seconds(text) returns epoch_seconds language sql immutable as $$
  select to_timestamp($1::numeric) $$;
create function json(epoch_seconds) returns json language sql immutable as $$
  select to_json(coalesce(extract(epoch from $1)::bigint, 0)) $$;
create cast (json as epoch_seconds) with function epoch_seconds(json) as implicit;
create cast (text as epoch_seconds) with function epoch_seconds(text) as implicit;
create cast (epoch_seconds as json) with function json(epoch_seconds) as implicit;

-- A domain without casts: its base type, unchanged.
create domain shelf_code as integer check (value > 0);

-- An explicit (not implicit) cast is no representation.
create domain percent as numeric;
create function json(percent) returns json language sql immutable as $$
  select to_json($1::text || '%') $$;
create cast (percent as json) with function json(percent);

create table chores (
  id bigint primary key,
  title text,
  tint color default 0,
  due utc_stamp default '2021-01-01 00:00:00+00',
  badge base64_bytes,
  made epoch_seconds default '2021-06-01 00:00:00+00',
  shelf shelf_code,
  done percent default 0
);
insert into chores values
  (1, 'Sweep', 256, '2021-03-04 05:06:07+00', '\x00ff10', '2021-06-01 00:00:00+00', 7, 50),
  (2, 'Dust', 65535, '2021-03-05 00:00:00+00', null, '2021-06-02 00:00:00+00', 8, 100),
  (3, 'Mop', null, null, null, null, null, null);

create table chore_pairs (
  id int primary key,
  first_id bigint references chores(id),
  second_id bigint references chores(id),
  label text
);
insert into chore_pairs values (1, 1, 2, 'floor'), (2, 2, 3, 'shelves');

create view chores_view as
  select id, title, tint, due, (tint / 2)::color as shade from chores;

create function chores_before(stamp timestamptz) returns setof chores language sql stable as $$
  select * from chores where due < stamp order by id $$;
create function chore_tint(chore bigint) returns color language sql stable as $$
  select tint from chores where id = chore $$;
create function same_color(c color) returns color language sql immutable as $$ select c $$;
create function chore_tints() returns table (id bigint, tint color) language sql stable as $$
  select id, tint from chores order by id $$;

grant all on chores, chore_pairs, chores_view to anon, authenticated, service_role;
grant execute on function chores_before(timestamptz), chore_tint(bigint), same_color(color),
  chore_tints() to anon, authenticated, service_role;
