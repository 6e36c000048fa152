-- The embed fidelity suite's own fixtures: relationships between tables, through views (in this
-- schema over tables of another), many-to-many, self and ambiguous references, computed
-- relationships and columns, and a partitioned table. Row-level security stays off: the cases
-- are about shapes, not roles.
create schema private;
grant usage on schema private to anon, authenticated, service_role;

create table clients (id int primary key, name text not null);
create table projects (
  id int primary key, name text not null, client_id int references clients (id));
create table tasks (
  id int primary key, name text not null, project_id int references projects (id));
create table members (id int primary key, name text not null);
create table members_tasks (
  member_id int references members (id), task_id int references tasks (id),
  primary key (member_id, task_id));

insert into clients values (1, 'Microsoft'), (2, 'Apple'), (3, 'Idle');
insert into projects values
  (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2), (4, 'OSX', 2), (5, 'Orphan', null);
insert into tasks values
  (1, 'Design w7', 1), (2, 'Code w7', 1), (3, 'Design w10', 2), (4, 'Code w10', 2),
  (5, 'Design IOS', 3), (6, 'Code IOS', 3), (7, 'Design OSX', 4);
insert into members values (1, 'Angela'), (2, 'Michael'), (3, 'Dwight');
insert into members_tasks values (1, 1), (1, 2), (2, 3), (2, 5), (3, 1);

-- Views: each column taken unchanged from a table carries that table's keys.
create view projects_view as select id, name, client_id from projects;
create view clients_view as select id, name from clients;
create view tasks_view as select id, name, project_id from tasks;
create view members_tasks_view as select member_id, task_id from members_tasks;
-- A view over a view, with renamed columns.
create view projects_renamed as select id as project_key, name as title, client_id as owner_key
  from projects_view;
-- A view that repeats the key column: one relationship for each copy.
create view projects_twice as select id, name, client_id as client_a, client_id as client_b
  from projects;
-- A view whose key column is an expression carries no key.
create view projects_computed as select id, name, client_id + 0 as client_id from projects;

-- Tables of a schema the API does not expose, seen only through views of this one.
create table private.artists (id int primary key, name text not null);
create table private.albums (
  id int primary key, title text not null, artist_id int references private.artists (id));
insert into private.artists values (1, 'Queen'), (2, 'Abba');
insert into private.albums values (1, 'A Night at the Opera', 1), (2, 'Innuendo', 1),
  (3, 'Arrival', 2);
create view artists as select id, name from private.artists;
create view albums as select id, title, artist_id from private.albums;

-- A self reference, and two foreign keys to the same table (ambiguous without a hint).
create table staff (id int primary key, name text not null, manager_id int references staff (id));
insert into staff values (1, 'Boss', null), (2, 'Ann', 1), (3, 'Bob', 1), (4, 'Cid', 2);
create table letters (
  id int primary key, body text not null,
  sender_id int constraint letters_sender_fkey references members (id),
  recipient_id int constraint letters_recipient_fkey references members (id));
insert into letters values (1, 'Hi Michael', 1, 2), (2, 'Hi Angela', 2, 1), (3, 'Memo', 3, 1);

-- One-to-one: a unique foreign key.
create table passports (id int primary key, number text not null,
  member_id int unique references members (id));
insert into passports values (1, 'P-100', 1), (2, 'P-200', 2);

-- Computed relationships: functions of a row returning rows of a table.
create table designers (id int primary key, name text not null);
create table videogames (id int primary key, name text not null,
  designer_id int references designers (id));
insert into designers values (1, 'Sid Meier'), (2, 'Hironobu Sakaguchi');
insert into videogames values (1, 'Civilization I', 1), (2, 'Civilization II', 1),
  (3, 'Final Fantasy I', 2), (4, 'Final Fantasy II', 2);
create function computed_designers(videogames) returns setof designers
  language sql stable rows 1 as $$ select * from designers where id = $1.designer_id $$;
create function computed_designers_noset(videogames) returns designers
  language sql stable as $$ select * from designers where id = $1.designer_id $$;
create function computed_videogames(designers) returns setof videogames
  language sql stable as $$ select * from videogames where designer_id = $1.id order by id $$;
-- Named after a table: replaces the foreign-key relationship to it.
create function designers(videogames) returns setof designers
  language sql stable rows 1 as $$ select * from designers where false $$;
-- The same name for two tables (overloaded on the row type).
create function related(clients) returns setof projects
  language sql stable as $$ select * from projects where client_id = $1.id order by id $$;
create function related(projects) returns setof tasks
  language sql stable as $$ select * from tasks where project_id = $1.id order by id $$;
create function getallvideogames() returns setof videogames
  language sql stable as $$ select * from videogames order by id $$;

-- Computed columns, overloaded on the row type.
create function label(clients) returns text
  language sql stable as $$ select 'client ' || $1.name $$;
create function label(projects) returns text
  language sql stable as $$ select 'project ' || $1.name $$;

-- A partitioned table: PostgREST lists the parent, never its partitions.
create table cities (id int primary key, name text not null);
create table readings (
  id int, city_id int references cities (id), taken date not null, value int,
  primary key (id, taken)) partition by range (taken);
create table readings_2026 partition of readings
  for values from ('2026-01-01') to ('2027-01-01');
insert into cities values (1, 'Seoul'), (2, 'Busan');
insert into readings values (1, 1, '2026-03-01', 10), (2, 1, '2026-04-01', 12),
  (3, 2, '2026-03-01', 7);

grant select on all tables in schema public to anon, authenticated, service_role;
grant select on all tables in schema private to anon, authenticated, service_role;
