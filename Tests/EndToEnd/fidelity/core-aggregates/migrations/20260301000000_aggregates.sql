-- The core-aggregates fidelity suite: a project with aggregates enabled, as PostgREST's
-- db-aggregates-enabled (set on the connecting role, as PostgREST's in-database configuration
-- reads it). The core suite keeps Supabase's default (off: PGRST123).
alter role authenticator set pgrst.db_aggregates_enabled = 'true';

create table public.entities (id int primary key, name text);
insert into public.entities values (1, 'entity 1'), (2, 'entity 2'), (3, 'entity 3'), (4, null);

create table public.projects (id int primary key, name text, client_id int);
insert into public.projects values (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2),
  (4, 'OSX', 2), (5, 'Orphan', null);

create table public.project_invoices (id int primary key, invoice_total numeric,
  project_id int references public.projects);
insert into public.project_invoices values (1, 100, 1), (2, 200, 1), (3, 500, 2), (4, 700, 2),
  (5, 1200, 3), (6, 2000, 3), (7, 100, 4), (8, 4000, 4);

create table public.trash_details (id int primary key, jsonb_col jsonb);
insert into public.trash_details values (1, '{"key": 10}'), (2, '{"key": 6}'), (3, '{"key": 8}');

create function public.getallprojects() returns setof public.projects language sql stable
  as $$ select * from public.projects $$;
