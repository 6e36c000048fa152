import SNMGateway
import SNMWire

/// The Storage buckets a project folder's config.toml names (`[storage.buckets.<name>]`): made,
/// or brought to the file's settings, at each start, as `supabase start` does.
///
/// ```swift
/// try ProjectBuckets(buckets: config.buckets).apply(on: connection)
/// ```
struct ProjectBuckets {
  var buckets: [ProjectFolderConfig.Bucket]

  static let upsert = """
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
    values ($1, $1, $2::boolean, $3::bigint,
      (select array_agg(value) from jsonb_array_elements_text($4::jsonb) as t(value)))
    on conflict (id) do update set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types, updated_at = now()
    """

  /// - Throws: `LocalProjectError` naming the bucket and Postgres's message.
  func apply(on connection: PGConnection) throws(LocalProjectError) {
    for bucket in buckets {
      let types = bucket.allowedMimeTypes.map { JSONValue.array($0.map(JSONValue.string)) }
      do {
        _ = try connection.execute(
          Self.upsert,
          [
            bucket.name, bucket.isPublic ? "true" : "false", bucket.fileSizeLimit.map(String.init),
            types?.serialized(),
          ])
      } catch {
        throw LocalProjectError(
          .failed, "cannot make the bucket \(bucket.name) of config.toml: \(error.message)")
      }
    }
  }
}
