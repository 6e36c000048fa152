-- Content-Location, stray closing parentheses, count=estimated and rpc arguments from a POST
-- (QuerySpec's canonical location, QueryParams.hs, Query.hs resultSetWTotal). Written here.
create table public.shelf (id int primary key, label text, size int);
insert into public.shelf values (1, 'a b', 1), (2, 'é', 2), (3, 'c', 3), (4, 'd', 4);
create function public.shelf_labels() returns setof text language sql as $$ select label from public.shelf $$;

-- 1,500 rows, more than max-rows (1,000): an exact count stops at 1,001.
create table public.many (id int primary key);
insert into public.many select g from generate_series(1, 1500) g;
analyze public.many;
-- The planner cannot estimate this filter (a default selectivity): it plans a few rows.
create view public.many_unestimated as select * from public.many where (id % 1) = 0;

-- rpc arguments from a POST body (RpcSpec "only for POST rpc").
create function public.sum_two(a int, b int) returns int language sql immutable as $$ select a + b $$;
create function public.greet(name text) returns text language sql immutable as $$ select 'Hello, ' || name $$;
create function public.shelf_from(first int) returns setof public.shelf language sql stable as $$
  select * from public.shelf where id >= first order by id $$;

-- Functions returning record (RpcSpec "returns a record type", "returns a setof record type").
create function public.shelf_record(id int, label text) returns record language sql stable as $$
  select * from public.shelf s where s.id = $1 and s.label like $2 $$;
create function public.shelf_records(id int, label text) returns setof record language sql stable as $$
  select * from public.shelf s where s.id >= $1 and s.label like $2 order by s.id $$;
