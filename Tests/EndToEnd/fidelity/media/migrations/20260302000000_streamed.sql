-- Reads of more than 1,000 rows, which the local gateway streams: the response settings a
-- function or the pre-request function sets apply to them as to a whole answer. Reads are not
-- capped (db-max-rows lifted), so an unlimited read of `many` is streamed.
alter role authenticator set pgrst.db_max_rows = '1000000';

create table many (id int primary key);
insert into many select generate_series(1, 1500);

-- A computed column that sets the answer's status and headers from every row.
create function teapot(many) returns int language plpgsql stable as $$
begin
  perform set_config('response.status', '418', true);
  perform set_config('response.headers', '[{"X-Row": "' || $1.id || '"}]', true);
  return $1.id;
end $$;

grant select on many to anon, authenticated, service_role;
grant execute on function teapot(many) to anon, authenticated, service_role;
