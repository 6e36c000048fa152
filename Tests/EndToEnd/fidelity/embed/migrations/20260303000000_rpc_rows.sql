-- Functions returning a table's rows, for computed columns and relationships overloaded on the
-- row type (QuerySpec "overloaded computed column on rpc", ComputedRelsSpec "overloaded
-- functions" through search/search2). Written here.
create function all_clients() returns setof clients language sql stable as $$ select * from clients $$;
create function all_projects() returns setof projects language sql stable as $$ select * from projects $$;
