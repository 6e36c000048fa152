-- A function's own SET settings, hoisted into the call's transaction as PostgREST does (docs:
-- Transactions, Hoisted Function Settings; its db-hoisted-tx-settings default: statement_timeout,
-- plan_filter.statement_cost_limit, default_transaction_isolation). anon's own timeout is 3 s.
create function sleeps_past_its_timeout() returns void language sql
  set statement_timeout = '1s' as $$ select pg_sleep(1.5) $$;
create function sleeps_past_anons_timeout() returns void language sql
  set statement_timeout = '6s' as $$ select pg_sleep(3.3) $$;

-- What the transaction's settings are once the function has returned: a view beside the rows it
-- returns, read by an embed in the same statement.
create table probes (id int primary key);
insert into probes values (1);
create table probe_readings (id int primary key, probe_id int references probes(id));
insert into probe_readings values (1, 1);
create view probe_settings as
  select r.id, r.probe_id, current_setting('statement_timeout') as statement_timeout,
    current_setting('work_mem') as work_mem
  from probe_readings r;
create function probes_with_settings() returns setof probes language sql stable
  set statement_timeout = '7s' set work_mem = '3000kB' as $$ select * from probes $$;
create function probes_plain() returns setof probes language sql stable as $$
  select * from probes $$;

grant all on probes, probe_readings, probe_settings to anon, authenticated, service_role;
grant execute on function sleeps_past_its_timeout(), sleeps_past_anons_timeout(),
  probes_with_settings(), probes_plain() to anon, authenticated, service_role;
