-- Names for the "Perhaps you meant ..." hints where PostgREST's Data.FuzzySet and a plain
-- Levenshtein ranking disagree: `parcels` is one edit from both `parcel` and `barcels`, and
-- FuzzySet prefers the one sharing more letter triples; `cab` is two edits from `hat` but shares
-- no letter pair with it, so FuzzySet finds nothing.
create table hat (id int primary key, name text);
create table parcel (id int primary key, hat_id int references hat);
create table barcels (id int primary key);
create function fetch_parcel() returns setof parcel language sql stable as $$ select * from parcel $$;
create function fetch_barcels() returns setof barcels language sql stable
  as $$ select * from barcels $$;
