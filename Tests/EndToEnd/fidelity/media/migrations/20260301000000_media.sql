-- The media suite's fixtures: media type handlers (domains named after media types and the
-- aggregates or functions returning them), non-JSON bodies, PUT, request and response settings,
-- timezones, the pre-request function, the plan media type and the search path. Written here
-- after PostgREST's documentation and spec expectations (CustomMediaSpec, RpcSpec, UpsertSpec,
-- RpcPreRequestGucsSpec, TimezoneSpec, PlanSpec).

-- What PostgREST reads from its configuration, set the way Supabase does (in-database config).
alter role authenticator set pgrst.db_pre_request = 'public.pre_request';
alter role authenticator set pgrst.db_plan_enabled = 'true';
alter role authenticator set pgrst.db_schemas = 'public, v2';

create schema v2;
grant usage on schema v2 to anon, authenticated, service_role;

-- Media type domains.
create domain "text/plain" as text;
create domain "text/html" as text;
create domain "text/xml" as pg_catalog.xml;
create domain "application/octet-stream" as bytea;
create domain "image/png" as bytea;
create domain "application/json" as json;
create domain "text/tab-separated-values" as text;
create domain "text/csv" as text;
create domain "*/*" as bytea;
create domain "pg/outfunc" as text;

create table projects (id int primary key, name text not null, client_id int);
insert into projects values (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2);

-- Scalar functions returning media types.
create function welcome() returns "text/plain" language sql as $$
  select 'Welcome to PostgREST'::"text/plain" $$;
create function welcome_twice() returns setof "text/plain" language sql as $$
  select 'Welcome to PostgREST'::"text/plain" union all select 'Welcome to PostgREST' $$;
create function "welcome.html"() returns "text/html" language sql as $$
  select '<h1>Welcome</h1>'::"text/html" $$;
create function return_scalar_xml() returns "text/xml" language sql as $$
  select '<my-xml-tag/>'::"text/xml" $$;
create function plain_text() returns text language sql as $$ select 'just text' $$;
create function ret_image() returns "image/png" language sql as $$
  select decode('89504e470d0a1a0a', 'hex')::"image/png" $$;
create function ret_null_png() returns "image/png" language sql as $$ select null::"image/png" $$;
create function ret_any_mt() returns "*/*" language sql as $$ select 'any'::"*/*" $$;
create function ret_some_mt() returns "*/*" language plpgsql as $$
declare
  accept text := current_setting('request.headers', true)::json->>'accept';
begin
  case accept
    when 'app/chico' then
      perform set_config('response.headers', json_build_array(json_build_object('Content-Type', accept))::text, true);
      return 'chico';
    when '*/*' then
      perform set_config('response.headers', '[{"Content-Type": "app/groucho"}]', true);
      return 'groucho';
    else
      raise sqlstate 'PT406' using message = 'Not Acceptable';
  end case;
end $$;

-- Aggregates: a relation's own handler, an anyelement one, overriding application/json.
create function tsv_trans(state text, next projects) returns "text/tab-separated-values"
language sql as $$
  select (state || next.id::text || E'\t' || next.name || E'\t' || coalesce(next.client_id::text, '') || E'\n')::"text/tab-separated-values" $$;
create function tsv_final(data "text/tab-separated-values") returns "text/tab-separated-values"
language sql as $$ select (E'id\tname\tclient_id\n' || data)::"text/tab-separated-values" $$;
create aggregate tsv_agg(projects) (
  initcond = '', stype = "text/tab-separated-values", sfunc = tsv_trans, finalfunc = tsv_final);

create function outfunc_trans(state text, next anyelement) returns "pg/outfunc" language sql as $$
  select (state || next::text || E'\n')::"pg/outfunc" $$;
create aggregate outfunc_agg(anyelement) (initcond = '', stype = "pg/outfunc", sfunc = outfunc_trans);

create table ov_json (id int);
insert into ov_json values (1);
create function ov_json_trans(state "application/json", next ov_json) returns "application/json"
language sql as $$ select state $$;
create aggregate ov_json_agg(ov_json) (
  initcond = '{"overridden": "true"}', stype = "application/json", sfunc = ov_json_trans);

create table some_numbers as select x::int as val from generate_series(1, 5) x;
create function some_trans(state "*/*", next some_numbers) returns "*/*" language sql as $$
  select (state || E'\n' || next.val::text::bytea)::"*/*" $$;
create function some_final(data "*/*") returns "*/*" language plpgsql as $$
declare
  accept text := current_setting('request.headers', true)::json->>'accept';
begin
  if accept = 'magic/number' then
    perform set_config('response.headers', '[{"Content-Type": "magic/number"}]', true);
    return ('magic' || data)::"*/*";
  end if;
  return ('anything' || data)::"*/*";
end $$;
create aggregate some_agg(some_numbers) (initcond = '', stype = "*/*", sfunc = some_trans, finalfunc = some_final);

create table xmltest (id int primary key, xml pg_catalog.xml);
insert into xmltest values (1, '<myxml>foo</myxml>'), (2, 'bar'), (3, '<foobar><baz/></foobar>');
create function xml_trans(state "text/xml", next xmltest) returns "text/xml" language sql as $$
  select xmlconcat(state, next.xml)::"text/xml" $$;
create aggregate text_xml_agg(xmltest) (stype = "text/xml", sfunc = xml_trans);

create table lines_csv (id int primary key, name text);
insert into lines_csv values (1, 'line-1'), (2, 'line-2');
create function bom_csv_trans(state text, next lines_csv) returns "text/csv" language sql as $$
  select (state || next.id::text || ',' || next.name || E'\n')::"text/csv" $$;
create function bom_csv_final(data "text/csv") returns "text/csv" language sql as $$
  select set_config('response.headers', '[{"Content-Disposition": "attachment; filename=\"lines.csv\""}]', true);
  select (E'id,name\n' || data)::"text/csv" $$;
create aggregate bom_csv_agg(lines_csv) (initcond = '', stype = "text/csv", sfunc = bom_csv_trans, finalfunc = bom_csv_final);

create table nullable_items (id int primary key, note text);
insert into nullable_items values (1, null), (2, 'two');

-- Single unnamed parameters: the whole body as text, xml or bytes.
create function unnamed_text_param(text) returns "text/plain" language sql as $$ select $1::"text/plain" $$;
create function unnamed_xml_param(pg_catalog.xml) returns "text/xml" language sql as $$ select $1::"text/xml" $$;
create function unnamed_bytea_param(bytea) returns "application/octet-stream" language sql as $$
  select $1::"application/octet-stream" $$;
create function unnamed_bytea_length(bytea) returns int language sql as $$ select length($1) $$;
create function unnamed_int_param(int) returns int language sql as $$ select $1 $$;
create function unnamed_json_param(json) returns json language sql as $$ select $1 $$;

-- Forms.
create type enum_menagerie_type as enum ('foo', 'bar');
create table menagerie (
  "integer" int primary key, "double" double precision, "varchar" varchar, "boolean" boolean,
  "date" date, "enum" enum_menagerie_type);
create function varied_arguments("double" double precision, "varchar" varchar, "boolean" boolean,
  "date" date, "enum" enum_menagerie_type, arr varchar[], "integer" int default 42)
returns json language sql as $$
  select json_build_object('double', "double", 'varchar', "varchar", 'boolean', "boolean",
    'date', "date", 'enum', "enum", 'arr', arr, 'integer', "integer") $$;
create function variadic_param(variadic v text[] default '{}') returns text[] language sql as $$ select v $$;

-- PUT.
create table tiobe_pls (name text primary key, rank int);
insert into tiobe_pls values ('Java', 1), ('C', 2), ('Python', 3);
create table employees (first_name text, last_name text, salary int, company text,
  primary key (first_name, last_name));
insert into employees values ('Frances M.', 'Roe', 24000, 'One-Up Realty');
create table no_pk (a text, b text);
create table only_pk (id int primary key);
insert into only_pk values (1);

-- Request and response settings.
create function get_guc_value(name text) returns text language sql stable as $$
  select nullif(current_setting(name, true), '') $$;
create function get_headers() returns json language sql stable as $$
  select current_setting('request.headers', true)::json $$;
create function get_cookies() returns json language sql stable as $$
  select current_setting('request.cookies', true)::json $$;
create function get_claims() returns json language sql stable as $$
  select current_setting('request.jwt.claims', true)::json $$;
create function set_teapot() returns text language sql as $$
  select set_config('response.status', '418', true);
  select 'short and stout' $$;
create function set_cookies() returns void language sql as $$
  select set_config('response.headers',
    '[{"Set-Cookie": "sessionid=38afes7a8"}, {"Set-Cookie": "id=a3fWa"}, {"Cache-Control": "no-cache"}]', true) $$;
create function set_location() returns json language sql as $$
  select set_config('response.status', '201', true);
  select set_config('response.headers', '[{"Location": "/projects?id=eq.9"}]', true);
  select '{"made": 9}'::json $$;
create function bad_guc_headers() returns int language sql as $$
  select set_config('response.headers', '{"X-Not": "an array"}', true);
  select 1 $$;
create function bad_guc_status() returns int language sql as $$
  select set_config('response.status', 'teapot', true);
  select 1 $$;
create function get_search_path() returns text language sql stable as $$
  select current_setting('search_path') $$;
create function v2.get_search_path() returns text language sql stable as $$
  select current_setting('search_path') $$;
-- An unqualified table name resolves in the request's schema first.
create table v2.projects (id int primary key, name text);
insert into v2.projects values (10, 'v2 project');
create function v2.count_projects() returns bigint language plpgsql stable as $$
begin return (select count(*) from projects); end $$;
create function count_projects() returns bigint language plpgsql stable as $$
begin return (select count(*) from projects); end $$;

-- Timezones.
create table timestamps (t timestamptz);
insert into timestamps values ('2023-10-18 12:37:59.611+00');

-- The pre-request function: sets a header on every answer, and refuses a marked request.
create function pre_request() returns void language plpgsql as $$
begin
  if current_setting('request.headers', true)::json->>'x-block' = 'yes' then
    raise sqlstate 'PT403' using message = 'blocked by the pre-request function',
      hint = 'remove the X-Block header';
  end if;
  perform set_config('response.headers', '[{"X-Pre-Request": "ran"}]', true);
  perform set_config('request.pre_request_ran', 'yes', true);
end $$;
grant execute on function pre_request() to anon, authenticated, service_role;

grant all on all tables in schema public, v2 to anon, authenticated, service_role;
grant execute on all functions in schema public, v2 to anon, authenticated, service_role;

create function get_projects() returns setof projects language sql stable as $$ select * from projects $$;
create function get_nullable_items() returns setof nullable_items language sql stable as $$
  select * from nullable_items $$;
grant execute on function get_projects(), get_nullable_items() to anon, authenticated, service_role;

create function has_header(name text) returns boolean language sql stable as $$
  select current_setting('request.headers', true)::jsonb ? name $$;
grant execute on function has_header(text) to anon, authenticated, service_role;

-- Domain representations (PostgREST docs: Domain Representations): a domain with casts from and
-- to json (and from text, for filters) is read and written in its own representation.
create domain color as integer check (value >= 0 and value <= 16777215);
create function color(json) returns color language sql immutable as $$
  select ('x' || lpad(ltrim($1 #>> '{}', '#'), 8, '0'))::bit(32)::int $$;
create function color(text) returns color language sql immutable as $$
  select ('x' || lpad(ltrim($1, '#'), 8, '0'))::bit(32)::int $$;
create function json(color) returns json language sql immutable as $$
  select to_json('#' || upper(lpad(to_hex($1), 6, '0'))) $$;
create cast (json as color) with function color(json) as implicit;
create cast (text as color) with function color(text) as implicit;
create cast (color as json) with function json(color) as implicit;
create table designs (id int primary key, name text, color color);
insert into designs values (1, 'Lime', 65280), (2, 'Red', 16711680);
grant all on designs to anon, authenticated, service_role;
