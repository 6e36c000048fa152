-- The 'control' suite: what a function or a role setting decides about the answer
-- (RAISE SQLSTATE 'PGRST', PTnnn codes, response GUCs, role settings, Prefer: tx and timezone).

create function public.raise_pgrst_full() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using
    message = '{"code":"123","message":"ABC","details":"DEF","hint":"XYZ"}',
    detail = '{"status":332,"status_text":"My Custom Status","headers":{"X-Header":"str"}}';
end $$;

create function public.raise_pgrst_short() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using
    message = '{"code":"123","message":"ABC"}',
    detail = '{"status":404,"headers":{"X-Header":"str","A-First":"1"}}';
end $$;

create function public.raise_pgrst_named_404() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using
    message = '{"code":"123","message":"ABC"}',
    detail = '{"status":404,"status_text":"My Not Found","headers":{}}';
end $$;

create function public.raise_pgrst_bad_message() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using message = 'INVALID', detail = '{"status":332,"headers":{}}';
end $$;

create function public.raise_pgrst_bad_detail() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using message = '{"code":"123","message":"ABC"}', detail = 'INVALID';
end $$;

create function public.raise_pgrst_no_detail() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using message = '{"code":"123","message":"ABC","details":"DEF"}';
end $$;

create function public.raise_pgrst_number_header() returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using
    message = '{"code":"123","message":"ABC"}', detail = '{"status":400,"headers":{"X-N":1}}';
end $$;

create function public.raise_pt402() returns void language plpgsql as $$
begin
  raise sqlstate 'PT402' using message = 'Payment Required', detail = 'Quota exceeded',
    hint = 'Upgrade your plan';
end $$;

create function public.raise_bad_pt() returns void language plpgsql as $$
begin
  raise sqlstate 'PT40A' using message = 'Wrong';
end $$;

-- a write refused by a trigger with full control of the answer
create table public.guarded (id int primary key, name text);
create function public.guard() returns trigger language plpgsql as $$
begin
  if new.name = 'teapot' then
    raise sqlstate 'PGRST' using
      message = '{"code":"TEA01","message":"I refuse","hint":"brew coffee"}',
      detail = '{"status":418,"status_text":"I''m a teapot","headers":{"X-Why":"teapot"}}';
  end if;
  return new;
end $$;
create trigger guard before insert on public.guarded for each row execute function public.guard();

-- response GUCs on rpc
create function public.send_status_403() returns json language plpgsql as $$
begin
  perform set_config('response.status', '403', true);
  return '{"message": "invalid user or password"}'::json;
end $$;

create function public.two_cookies() returns void language plpgsql as $$
begin
  perform set_config('response.headers',
    '[{"Set-Cookie": "sessionid=38afes7a8; HttpOnly; Path=/"}, {"Set-Cookie": "id=a3fWa; Secure"}]', true);
end $$;

-- role settings, one with capitals
create table public.timestamps (t timestamptz);
insert into public.timestamps values ('2023-10-18 12:37:59.611+00');
create function public.current_tz() returns text language sql stable as $$
  select current_setting('TimeZone')
$$;
alter role authenticated set "TimeZone" = 'America/Los_Angeles';

-- Prefer: tx=rollback under db-tx-end=commit
create table public.ledger (id int primary key, note text);
alter role anon set timezone = 'Asia/Tokyo';
