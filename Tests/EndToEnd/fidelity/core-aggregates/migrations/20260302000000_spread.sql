-- Aggregates over spread embeds (PostgREST v13 hoists them to the first level that is not a
-- to-one spread): budgets and expenses (many-to-one), and processes with their one cost row, their
-- category and factory, and the supervisors each has (a junction). Data of this suite's own.
create table public.budget_categories (id int primary key, category_name text, budget_owner text,
  budget_amount numeric);
insert into public.budget_categories values (1, 'Rent', 'Ana', 1000.50), (2, 'Food', 'Ben', 300.25),
  (3, 'Travel', 'Ana', 700.00), (4, 'Tools', 'Cleo', null);

create table public.budget_expenses (id int primary key, expense_amount numeric,
  budget_category_id int references public.budget_categories);
insert into public.budget_expenses values (1, 100.10, 1), (2, 50.00, 1), (3, 20.00, 2),
  (4, 300.00, 3), (5, 5.55, null);

create table public.factories (id int primary key, name text);
insert into public.factories values (1, 'Factory A'), (2, 'Factory B'), (3, 'Factory C');

create table public.factory_buildings (id int primary key, code text, size numeric, type text,
  factory_id int references public.factories);
insert into public.factory_buildings values (1, 'A001', 150, 'A', 1), (2, 'A002', 200, 'B', 1),
  (3, 'B001', 50, 'A', 2);

create table public.process_categories (id int primary key, name text);
insert into public.process_categories values (1, 'Batch'), (2, 'Mass');

create table public.processes (id int primary key, name text,
  factory_id int references public.factories, category_id int references public.process_categories);
insert into public.processes values (1, 'A1', 1, 1), (2, 'A2', 1, 2), (3, 'B1', 2, 1), (4, 'B2', 2, 1),
  (5, 'C1', 3, 2), (6, 'C2', 3, 2);

-- One cost row per process (the key is the foreign key: a one-to-one); C2 has none.
create table public.process_costs (process_id int primary key references public.processes,
  cost numeric);
insert into public.process_costs values (1, 150.40), (2, 200.00), (3, 180.25), (4, 70.60),
  (5, 40.00);

create table public.supervisors (id int primary key, name text);
insert into public.supervisors values (1, 'Mary'), (2, 'John'), (3, 'Peter'), (4, 'Jane');

create table public.process_supervisor (process_id int references public.processes,
  supervisor_id int references public.supervisors, primary key (process_id, supervisor_id));
insert into public.process_supervisor values (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (1, 3);
