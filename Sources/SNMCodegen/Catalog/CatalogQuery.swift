/// The one query `snm gen` runs on a local project's database: every type, relation, enum,
/// composite type and function of the schemas in `$1` (a `text[]`), as one JSON document that
/// ``DatabaseCatalog/init(catalogJSON:schemas:source:)`` reads.
///
/// Nullability and defaults follow postgres-meta: a column is nullable unless `NOT NULL`; an
/// insert may leave out a column with a default, an identity or a generated column. Functions
/// are PostgREST's: plain functions (`prokind = 'f'`), with their named arguments.
public enum CatalogQuery {
  public static let sql = """
    with wanted as (select unnest($1::text[]) as name)
    select json_build_object(
      'types', (
        select coalesce(json_agg(json_build_object(
          'oid', t.oid::int8, 'schema', n.nspname, 'name', t.typname, 'kind', t.typtype::text,
          'element', case when t.typcategory = 'A' then nullif(t.typelem, 0)::int8 end,
          'base', case when t.typtype = 'd' then t.typbasetype::int8 end,
          'relkind', (select c.relkind::text from pg_class c where c.oid = t.typrelid),
          'relname', (select c.relname from pg_class c where c.oid = t.typrelid))), '[]')
        from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname not in ('pg_toast', 'information_schema')
          and (t.typrelid = 0 or n.nspname in (select name from wanted)
               or t.typtype = 'c' and n.nspname <> 'pg_catalog')),
      'relations', (
        select coalesce(json_agg(json_build_object(
          'schema', n.nspname, 'name', c.relname, 'kind', c.relkind::text,
          'comment', case when c.relkind = 'c' then obj_description(c.reltype, 'pg_type')
                          else obj_description(c.oid, 'pg_class') end,
          'insertable', c.relkind in ('r', 'p') or (pg_relation_is_updatable(c.oid, false) & 8) = 8,
          'updatable', c.relkind in ('r', 'p') or (pg_relation_is_updatable(c.oid, false) & 4) = 4,
          'primary_key', (
            select coalesce(json_agg(a.attname order by k.ord), '[]')
            from pg_index i cross join unnest(i.indkey) with ordinality k(attnum, ord)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
            where i.indrelid = c.oid and i.indisprimary),
          'columns', (
            select coalesce(json_agg(json_build_object(
              'name', a.attname, 'type', a.atttypid::int8, 'not_null', a.attnotnull,
              'has_default', a.atthasdef, 'identity', a.attidentity::text,
              'generated', a.attgenerated::text, 'comment', col_description(c.oid, a.attnum),
              'dimensions', a.attndims)
              order by a.attnum), '[]')
            from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped))
          order by n.nspname, c.relname), '[]')
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in (select name from wanted) and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')),
      'enums', (
        select coalesce(json_agg(json_build_object(
          'schema', n.nspname, 'name', t.typname, 'comment', obj_description(t.oid, 'pg_type'),
          'labels', (select json_agg(e.enumlabel order by e.enumsortorder)
                     from pg_enum e where e.enumtypid = t.oid))
          order by n.nspname, t.typname), '[]')
        from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where t.typtype = 'e' and n.nspname in (select name from wanted)),
      'functions', (
        select coalesce(json_agg(json_build_object(
          'schema', n.nspname, 'name', p.proname, 'comment', obj_description(p.oid, 'pg_proc'),
          'returns', p.prorettype::int8, 'set', p.proretset,
          'arg_types', coalesce(p.proallargtypes::int8[], p.proargtypes::int8[]),
          'arg_names', p.proargnames, 'arg_modes', p.proargmodes::text[],
          'defaults', p.pronargdefaults)
          order by n.nspname, p.proname, p.oid), '[]')
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.prokind = 'f' and n.nspname in (select name from wanted)
          and not exists (select 1 from pg_depend d
                          where d.objid = p.oid and d.deptype = 'e'))
    )::text
    """
}
