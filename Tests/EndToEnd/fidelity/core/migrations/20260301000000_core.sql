-- The core fidelity suite's fixtures: ranges, writes under max-affected, JSON paths on json,
-- arrays and composites, the smaller read/write rules, and aggregates. Written for snm's own
-- cases (Tests/EndToEnd/fidelity/core/*.json); shaped after what PostgREST's spec exercises.

create table public.items (id bigserial primary key);
insert into public.items (id) select generate_series(1, 15);
select setval('public.items_id_seq', 15);

create table public.empty_things (id int primary key, name text);

create function public.getitemrange(min bigint, max bigint) returns setof public.items
  language sql stable as $$ select * from public.items where id > min and id <= max $$;

-- writes under Prefer: max-affected (rolled back when exceeded)
create table public.tasks (id int primary key, name text, done boolean not null default false);
insert into public.tasks values (1, 'walk', false), (2, 'feed', false), (3, 'brush', false),
  (4, 'play', true), (5, 'nap', true);

create function public.finish_tasks(upto int) returns setof public.tasks
  language sql as $$ update public.tasks set done = true where id <= upto returning * $$;

-- JSON paths
create type public.complex as (r double precision, i double precision);
create table public.fav_numbers (num public.complex, person text primary key);
insert into public.fav_numbers values (row(0.5, 0.5), 'A'), (row(0.6, 0.6), 'B');

create table public.arrays (id int primary key, numbers int[], numbers_mult int[][]);
insert into public.arrays values (0, '{1,2,3}', '{{1,2,3},{4,5,6},{7,8,9}}'),
  (1, '{11,12,13}', '{{11,12,13},{14,15,16},{17,18,19}}');

create table public.json_arr (id int primary key, data jsonb);
insert into public.json_arr values
  (1, '[1, 2, 3]'), (2, '[4, 5, 6]'), (3, '[[9, 8, 7], [11, 12, 13]]'),
  (4, '[[[5, 6], 7]]'), (5, '[{"a": "A"}, {"b": "B"}]'), (6, '[{"a": [1,2,3]}, {"b": [4,5]}]'),
  (7, '{"c": [1,2,3]}'), (8, '{"c": [{"d": [4,5,6,7,8]}]}'),
  (10, '{"!@#$%^&*_d": {"!@#$%^&*_e": 3}, "with space": 1, "a-b": 2}');

create table public.json_table (id int primary key, data json);
insert into public.json_table values (1, '{"id": 1, "foo": {"bar": "baz"}}'), (2, '{"id": 3}'),
  (3, '{"id": 0}');

-- full-text search on a tsvector column
create table public.tsearch (id int primary key, text_search_vector tsvector);
insert into public.tsearch values
  (1, to_tsvector('simple', 'It''s kind of fun to do the impossible')),
  (2, to_tsvector('english', 'But also fun to do what is possible')),
  (3, to_tsvector('french', 'Fat cats ate rats'));

-- writes and reads of the smaller rules
create table public.notes (id int primary key, body text, tag text default 'none');
insert into public.notes values (1, 'one', 'a'), (2, 'two', 'b'), (3, '', 'c'), (4, null, 'd');

create table public.compound (k1 int, k2 text, v text, primary key (k1, k2));

create table public.limited (id int primary key, visible text, hidden text);
insert into public.limited values (1, 'shown', 'kept back');
revoke all on public.limited from anon, authenticated;
grant select (id, visible), insert (id, visible, hidden), update (visible) on public.limited to anon;

create function public.ret_record() returns record language sql stable as $$ select 1 as id, 'x'::text as name $$;
create function public.ret_setof_record() returns setof record language sql stable
  as $$ select * from public.notes where id <= 2 order by id $$;

create function public.char_param(c char(4)) returns text language sql stable
  as $$ select c || '|' || length(c)::text $$;
create function public.bit_param(b bit(3)) returns text language sql stable as $$ select b::text $$;
create function public.varchar_param(v varchar(3)) returns text language sql stable as $$ select v $$;

-- what supabase-py's own postgrest tests exercise (our fixtures, their shapes)
create table public.reservations (id int primary key, room_name text, during tsrange);
insert into public.reservations values (1, 'Emerald', '[2000-01-01 13:00, 2000-01-01 15:00)'),
  (2, 'Topaz', '[2000-01-02 09:00, 2000-01-02 10:00)');
create table public.issues (id int primary key, title text, tags text[]);
insert into public.issues values (1, 'cache', array['is:open', 'severity:high', 'priority:low']),
  (2, 'names', array['is:open', 'severity:low', 'priority:medium']),
  (3, 'filters', array['is:open', 'severity:low', 'priority:high']),
  (4, 'alias', array['is:closed', 'severity:low', 'priority:medium']);
create table public.countries (id int primary key, nicename text, numcode int);
insert into public.countries values (1, 'Afghanistan', 4), (2, 'Albania', 8), (3, 'Algeria', 12),
  (4, 'Antarctica', null);
create table public.cities (id int primary key, country_id int references public.countries, name text);
insert into public.cities values (1, 2, 'Tirana'), (2, 2, 'Durres'), (3, 3, 'Algiers');
create function public.search_countries(q text) returns setof public.countries language sql stable
  as $$ select * from public.countries where nicename ilike '%' || q || '%' $$;
