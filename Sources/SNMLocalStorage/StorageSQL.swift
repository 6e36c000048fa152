/// The SQL the Storage gateway runs: every value a bound parameter, every name fixed here.
enum StorageSQL {
  /// A timestamp as Storage's JSON shows one (JavaScript's `toISOString`).
  static func time(_ column: String) -> String {
    "to_char(\(column) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
  }

  /// One bucket as Storage's bucket schema serialises it (a null owner is `""`).
  static let bucketJSON = """
    json_build_object('id', b.id, 'name', b.name, 'owner', coalesce(b.owner::text, ''),
      'public', coalesce(b.public, false), 'file_size_limit', b.file_size_limit,
      'allowed_mime_types', b.allowed_mime_types, 'created_at', \(time("b.created_at")),
      'updated_at', \(time("b.updated_at")), 'type', b.type)
    """

  /// One object row as Storage's object schema serialises it (null owner ids are `""`).
  static let objectJSON = """
    json_build_object('name', o.name, 'bucket_id', o.bucket_id,
      'owner', coalesce(o.owner::text, ''), 'owner_id', coalesce(o.owner_id, ''),
      'version', coalesce(o.version, ''), 'id', o.id, 'updated_at', \(time("o.updated_at")),
      'created_at', \(time("o.created_at")), 'last_accessed_at', \(time("o.last_accessed_at")),
      'metadata', o.metadata, 'user_metadata', o.user_metadata)
    """

  static let findBucket = """
    select b.id, b.public, b.file_size_limit, b.allowed_mime_types from storage.buckets b
    where b.id = $1
    """

  static let findObject = """
    select o.id, o.version, o.metadata::text, o.owner_id from storage.objects o
    where o.bucket_id = $1 and o.name = $2 limit 1
    """

  /// The row a new upload would insert, tried as the caller and rolled back (Storage's
  /// `canUpload`): RLS decides, and a duplicate name is a 23505.
  static let tryInsert = """
    insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
    values ($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb, '1')
    """

  /// The same for an upsert: the insert's policy, and update's and select's on a row there.
  static let tryUpsert = """
    insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
    values ($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb, '1')
    on conflict (name, bucket_id) do update set metadata = excluded.metadata,
      user_metadata = excluded.user_metadata, version = excluded.version,
      owner = excluded.owner, owner_id = excluded.owner_id
    returning id
    """

  /// Serialises writers of one object name for the rest of the transaction.
  static let lockObject = "select pg_advisory_xact_lock(hashtext($1 || '/' || $2))"

  /// The row an upload would replace, locked to the end of the transaction: its version,
  /// whose file goes once the new row commits. Read in its own statement: a `for update` read
  /// in the statement that updates the row sees no row (Postgres skips a row the same command
  /// changed), so the old version would never be removed.
  static let currentVersion = """
    select o.version from storage.objects o where o.bucket_id = $1 and o.name = $2 for update
    """

  /// The final row of a new object, as service_role (a name taken is a 23505).
  static let insertObject = """
    insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
    values ($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb, $7)
    returning id::text
    """

  /// The final row of an upsert, as service_role, once the uploader's policies allowed it.
  static let upsertObject = """
    insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
    values ($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb, $7)
    on conflict (name, bucket_id) do update set metadata = excluded.metadata,
      user_metadata = excluded.user_metadata, version = excluded.version,
      owner = excluded.owner, owner_id = excluded.owner_id, last_accessed_at = now()
    returning id::text
    """
}
