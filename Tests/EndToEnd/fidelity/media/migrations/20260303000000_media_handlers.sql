-- Media type handlers, second round: a relation's own aggregate against the anyelement one for
-- the same type, handlers over jsonb (whose value PostgREST reads in binary: a version byte
-- first), the built-in application/geo+json, the any handler on a view, and what the default
-- select decides. Written here after PostgREST's Media Type Handlers page and the expectations
-- of its CustomMediaSpec; geometry is plain text (no PostGIS in the local cluster).

create domain "application/vnd.twkb" as bytea;
create domain "application/vnd.geo2+json" as jsonb;
create domain "application/geo+json" as jsonb;
create domain "application/vnd.pgrst.object" as json;
create domain "application/x-count" as integer;

create table lines (id int primary key, name text, geom text);
insert into lines values (1, 'line-1', 'L(1 1,5 5)'), (2, 'line-2', 'L(2 2,6 6)');

-- A relation's own binary handler: the rows' geometry as bytes, one per line.
create function twkb_trans(state bytea, next lines) returns "application/vnd.twkb"
language sql as $$ select (state || convert_to(next.geom || E'\n', 'UTF8'))::"application/vnd.twkb" $$;
create aggregate twkb_agg(lines) (initcond = '', stype = "application/vnd.twkb", sfunc = twkb_trans);

create function get_lines() returns setof lines language sql as $$ select * from lines $$;
create function get_line(id int) returns "application/vnd.twkb" language sql as $$
  select convert_to(l.geom, 'UTF8')::"application/vnd.twkb" from lines l where l.id = get_line.id $$;

-- An anyelement handler over jsonb, and a table's own one for the same media type.
create function geo2_trans(state "application/vnd.geo2+json", next anyelement)
returns "application/vnd.geo2+json" language sql as $$
  select (state || jsonb_build_array(to_jsonb(next)))::"application/vnd.geo2+json" $$;
create function geo2_final(data "application/vnd.geo2+json") returns "application/vnd.geo2+json"
language sql as $$
  select jsonb_build_object('type', 'FeatureCollection', 'rows', jsonb_array_length(data))::"application/vnd.geo2+json" $$;
create aggregate geo2_agg_any(anyelement) (
  initcond = '[]', stype = "application/vnd.geo2+json", sfunc = geo2_trans, finalfunc = geo2_final);

create table beacons (id int primary key, name text);
insert into beacons values (1, 'beacon-1'), (2, 'beacon-2');
create function beacons_geo2_trans(state "application/vnd.geo2+json", next beacons)
returns "application/vnd.geo2+json" language sql as $$ select '"own handler"'::"application/vnd.geo2+json" $$;
create aggregate beacons_geo2_agg(beacons) (
  initcond = '[]', stype = "application/vnd.geo2+json", sfunc = beacons_geo2_trans);
create function get_beacons() returns setof beacons language sql as $$ select * from beacons $$;

-- application/geo+json overridden for one table (built in for the others).
create function lines_geojson_trans(state jsonb, next lines) returns jsonb language sql as $$
  select state || jsonb_build_array(jsonb_build_object('type', 'Feature',
    'properties', jsonb_build_object('id', next.id, 'name', next.name))) $$;
create function lines_geojson_final(data jsonb) returns "application/geo+json" language sql as $$
  select jsonb_build_object('type', 'FeatureCollection', 'features', data)::"application/geo+json" $$;
create aggregate lines_geojson_agg(lines) (
  initcond = '[]', stype = jsonb, sfunc = lines_geojson_trans, finalfunc = lines_geojson_final);

-- A vendored media type cannot be overridden, even by a domain of its name.
create function lines_object_trans(state "application/vnd.pgrst.object", next lines)
returns "application/vnd.pgrst.object" language sql as $$ select '{"overridden": true}'::"application/vnd.pgrst.object" $$;
create aggregate lines_object_agg(lines) (
  initcond = '{}', stype = "application/vnd.pgrst.object", sfunc = lines_object_trans);

-- A handler whose domain is over integer: PostgREST reads the value in binary.
create function count_lines() returns "application/x-count" language sql as $$
  select count(*)::int::"application/x-count" from lines $$;

-- The any handler on a view: XML whatever the Accept, unless the Accept names something else.
create view "lines.xml" as select * from lines;
create function lines_xml_trans(state "*/*", next "lines.xml") returns "*/*" language sql as $$
  select (state || convert_to(xmlelement(name line, xmlattributes(next.id as id), next.name)::text || E'\n', 'UTF8'))::"*/*" $$;
create function lines_xml_final(data "*/*") returns "*/*" language plpgsql as $$
declare
  accept text := current_setting('request.headers', true)::json->>'accept';
begin
  if accept is null or accept = '*/*' then
    perform set_config('response.headers', '[{"Content-Type": "text/xml"}]', true);
  elsif accept in ('application/xml', 'text/xml') then
    perform set_config('response.headers', json_build_array(json_build_object('Content-Type', accept))::text, true);
  else
    raise sqlstate 'PT415' using message = 'Unsupported Media Type';
  end if;
  return data;
end $$;
create aggregate lines_xml_agg("lines.xml") (initcond = '', stype = "*/*", sfunc = lines_xml_trans, finalfunc = lines_xml_final);

grant select, insert on lines, beacons, "lines.xml" to anon, authenticated, service_role;
