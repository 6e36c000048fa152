-- The basics suite's fixture: one plain table, readable by anon, writable by service_role.
create table public.walkers (
  id int primary key,
  name text not null,
  city text
);
insert into public.walkers values (1, 'Kim', 'Seoul'), (2, 'Lee', 'Busan'), (3, 'Park', null);
revoke all on public.walkers from anon, authenticated;  -- Supabase grants all by default
grant select on public.walkers to anon, authenticated;
grant all on public.walkers to service_role;
