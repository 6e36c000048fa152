import Foundation
import SNMGateway
import SNMWire

extension StorageGateway {
  /// POST /object/list/:bucket `{"prefix", "limit", "offset", "sortBy", "search"}`: one folder
  /// level through `storage.search`, as the caller (a bucket it may not read lists nothing).
  func list(_ bucketID: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    let body = try jsonBody(request)
    var prefix = try requiredString(body, "prefix")
    if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
    let limit = body["limit"]?.intValue ?? 100
    let offset = body["offset"]?.intValue ?? 0
    let search = body["search"]?.stringValue ?? ""
    try StorageKey.lookup(prefix)
    try StorageKey.lookup(search)
    var column = "name"
    var order = "asc"
    if let sortBy = body["sortBy"]?.objectValue {
      column = sortBy["column"]?.stringValue ?? "name"
      guard ["name", "updated_at", "created_at", "last_accessed_at"].contains(column) else {
        throw .validation("body/sortBy/column must be equal to one of the allowed values")
      }
      order = sortBy["order"]?.stringValue ?? "asc"
      guard ["asc", "desc"].contains(order) else {
        throw .validation("body/sortBy/order must be equal to one of the allowed values")
      }
    }
    let sql = """
      select coalesce(json_agg(json_build_object('name', s.name, 'id', s.id,
        'updated_at', \(StorageSQL.time("s.updated_at")), 'created_at', \(StorageSQL.time("s.created_at")),
        'last_accessed_at', \(StorageSQL.time("s.last_accessed_at")), 'metadata', s.metadata)), '[]')
      from storage.search($1, $2, $3::int, 1, $4::int, $5, $6, $7) s
      """
    let text = try transaction(caller.auth, .list(bucket: bucketID)) { tx in
      try tx.execute(
        sql, [prefix, bucketID, String(limit), String(offset), search, column, order]
      ).scalar
    }
    return Self.compact(text ?? "[]")
  }

  /// POST /object/list-v2/:bucket `{"prefix", "cursor", "with_delimiter", "limit", "sortBy"}`:
  /// objects in name order after the cursor, folders folded when a delimiter is asked for.
  func listV2(_ bucketID: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    let body = try jsonBody(request)
    let prefix = body["prefix"]?.stringValue ?? ""
    try StorageKey.lookup(prefix)
    let limit = min(max(body["limit"]?.intValue ?? 1000, 1), 1000)
    let delimited = body["with_delimiter"]?.boolValue ?? false
    var after = ""
    if let cursor = body["cursor"]?.stringValue, !cursor.isEmpty {
      guard let data = Data(base64Encoded: cursor),
        let text = String(data: data, encoding: .utf8), text.hasPrefix("l:"),
        !text.utf8.contains(0)
      else { throw .invalidParameter("continuation token") }
      after = String(text.dropFirst(2).prefix { $0 != "\n" })
    }
    let rows = try transaction(caller.auth, .listV2(bucket: bucketID)) { tx in
      try tx.execute(
        """
        select o.name, json_build_object('id', o.id, 'name', o.name,
          'updated_at', \(StorageSQL.time("o.updated_at")), 'created_at', \(StorageSQL.time("o.created_at")),
          'last_accessed_at', \(StorageSQL.time("o.last_accessed_at")), 'metadata', o.metadata)::text
        from storage.objects o
        where o.bucket_id = $1 and o.name like $2 and o.name collate "C" > $3
        order by o.name collate "C" limit $4::int
        """,
        [bucketID, Self.escapeLike(prefix) + "%", after, String(delimited ? 100_000 : limit + 1)]
      ).rows
    }
    // With a delimiter, every entry has a `key`: its name's part at the prefix's depth, as
    // Supabase Storage's search_v2 answers (storage3 requires it of a folder).
    let levels =
      prefix.isEmpty ? 1 : prefix.split(separator: "/", omittingEmptySubsequences: false).count
    var folders: [JSONValue] = []
    var objects: [JSONValue] = []
    var lastName: String?
    var seenFolder = ""
    var more = false
    for row in rows {
      guard let name = row[0] else { continue }
      if folders.count + objects.count == limit {
        more = true
        break
      }
      let rest = name.dropFirst(prefix.count)
      if delimited, let slash = rest.firstIndex(of: "/") {
        let folder = prefix + rest[..<slash]
        if folder + "/" == seenFolder { continue }
        seenFolder = folder + "/"
        // As storage.search_v2 answers a folder: its key, no id and no times.
        folders.append(
          .object([
            .init("key", .string(Self.pathPart(folder, levels))),
            .init("name", .string(seenFolder)), .init("id", .null), .init("updated_at", .null),
            .init("created_at", .null), .init("last_accessed_at", .null),
            .init("metadata", .null),
          ]))
        lastName = seenFolder + "\u{10FFFF}"
        continue
      }
      var object = (try? JSONValue(parsing: row[1] ?? "null")) ?? .null
      if delimited, case .object(let members) = object {
        let key = ("key", JSONValue.string(Self.pathPart(name, levels)))
        object = .object(JSONObject([key] + zip(members.keys, members.values)))
      }
      objects.append(object)
      lastName = name
    }
    var result = JSONObject()
    result["hasNext"] = .bool(more)
    if more, let lastName {
      result["nextCursor"] = .string(Data(("l:" + lastName).utf8).base64EncodedString())
    }
    result["folders"] = .array(folders)
    result["objects"] = .array(objects)
    return Self.json(.object(result))
  }

  /// The `level`th of `name`'s `/`-separated parts (from 1), "" past the last: Postgres's
  /// `split_part(name, '/', level)`.
  static func pathPart(_ name: String, _ level: Int) -> String {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    return level >= 1 && level <= parts.count ? String(parts[level - 1]) : ""
  }

  /// DELETE /object/:bucket `{"prefixes": [...]}`: deleted as the caller (RLS decides which);
  /// the answer lists those that went.
  func removeMany(_ bucketID: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    let body = try jsonBody(request)
    guard let prefixes = body["prefixes"] else {
      throw .validation("body must have required property 'prefixes'")
    }
    guard let items = prefixes.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
      throw .validation("body/prefixes must be array")
    }
    guard !items.isEmpty else {
      throw .validation("body/prefixes must NOT have fewer than 1 items")
    }
    guard items.count <= 1000 else {
      throw .invalidRequest("Bulk object requests are limited to 1000 objects per request.")
    }
    let names = items.compactMap(\.stringValue)
    for name in names { try StorageKey.lookup(name) }
    let rows = try transaction(caller.auth, .removeMany(bucket: bucketID)) { tx in
      try tx.execute(
        """
        with gone as (
          delete from storage.objects o where o.bucket_id = $1 and o.name = any($2::text[])
          returning o.*
        )
        select o.version, \(StorageSQL.objectJSON)::text from gone o
        """, [bucketID, SQLText.arrayLiteral(names)]
      ).rows
    }
    var removed: [JSONValue] = []
    for row in rows {
      if let version = row[0] { files.remove(version: version) }
      removed.append((try? JSONValue(parsing: row[1] ?? "null")) ?? .null)
    }
    return Self.json(.array(removed))
  }

  /// DELETE /object/:bucket/*: one object, deleted as the caller. An object the caller cannot
  /// see answers as a missing one (404 NoSuchKey): a delete tells no one what exists. One they
  /// see but may not delete is 403 AccessDenied, as Storage answers.
  func remove(_ bucketID: String, _ rawName: String, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    _ = try StorageKey.bucket(bucketID)
    let name = try StorageKey.object(rawName)
    let route = StorageRoute.remove(bucket: bucketID, name: rawName)
    let version = try transaction(caller.auth, route) { tx -> String? in
      guard
        try !tx.execute(
          "select 1 from storage.objects where bucket_id = $1 and name = $2",
          [bucketID, name]
        ).rows.isEmpty
      else { throw StorageFailure.noSuchKey(name) }
      let gone = try tx.execute(
        "delete from storage.objects where bucket_id = $1 and name = $2 returning version",
        [bucketID, name])
      guard let row = gone.rows.first else { throw StorageFailure.accessDenied("Access denied") }
      return row[0]
    }
    if let version { files.remove(version: version) }
    return Self.message("Successfully deleted")
  }

  /// POST /object/move and /object/copy `{"bucketId", "sourceKey", "destinationKey",
  /// "destinationBucket"?}`. A move renames the row as the caller (the update policy decides;
  /// the bytes stay where they are); a copy needs to read the source and to upload the
  /// destination, and gets bytes of its own. Either lands only as an upload could: the
  /// destination bucket must exist (404 NoSuchBucket) and take the object's size and type.
  func move(_ request: HTTPRequest, caller: StorageCaller, copy: Bool) throws(StorageFailure)
    -> HTTPResponse
  {
    let body = try jsonBody(request)
    let bucketID = try requiredString(body, "bucketId")
    let source = try requiredString(body, "sourceKey")
    let destinationName = try requiredString(body, "destinationKey")
    let destinationBucket = body["destinationBucket"]?.stringValue ?? bucketID
    _ = try StorageKey.bucket(bucketID)
    _ = try StorageKey.bucket(destinationBucket)
    try StorageKey.lookup(source)
    let destination = try StorageKey.object(destinationName)
    let route: StorageRoute = copy ? .copy : .move
    guard let target = try findBucket(destinationBucket, route: route) else {
      throw .noSuchBucket(destinationBucket)
    }
    if copy {
      return try copyObject(
        bucketID, source, to: target, destination, request: request, caller: caller, body: body)
    }
    let owner = caller.owner
    let globalLimit = settings.fileSizeLimit
    let id = try transaction(caller.auth, .move) { tx -> String in
      guard
        let found = try tx.execute(StorageSQL.findObject, [bucketID, source]).rows.first.flatMap(
          StorageObjectRow.init)
      else { throw StorageFailure.noSuchKey(source) }
      try target.admit(
        size: found.size, type: found.mimetype, name: destination, globalLimit: globalLimit)
      let moved = try tx.execute(
        """
        update storage.objects set name = $3, bucket_id = $4, owner = $5::uuid, owner_id = $6,
          last_accessed_at = now()
        where bucket_id = $1 and name = $2 returning id
        """,
        [bucketID, source, destination, destinationBucket, owner.flatMap(Self.uuidOrNil), owner])
      guard let id = moved.rows.first?[0] else { throw StorageFailure.noSuchKey(source) }
      return id
    }
    return Self.json(
      .object([
        .init("message", .string("Successfully moved")), .init("Id", .string(id)),
        .init("Key", .string(destination)),
      ]))
  }

  func copyObject(
    _ bucketID: String, _ source: String, to target: StorageBucketRow, _ destination: String,
    request: HTTPRequest, caller: StorageCaller, body: JSONObject
  ) throws(StorageFailure) -> HTTPResponse {
    let destinationBucket = target.id
    let upsert = request.headers["x-upsert"] == "true"
    let original = try findObject(bucketID, source, as: caller.auth, route: .copy)
    var metadata = original.metadata.objectValue ?? JSONObject()
    if let changes = body["metadata"]?.objectValue, body["copyMetadata"]?.boolValue == false {
      try StorageKey.checkMetadata(.object(changes), what: "metadata")
      for key in ["cacheControl", "mimetype"] {
        guard let value = changes[key] else { continue }
        guard value.stringValue != nil else {
          throw .validation("body/metadata/\(key) must be string")
        }
        metadata[key] = value
      }
    }
    let type = metadata["mimetype"]?.stringValue ?? "application/octet-stream"
    try target.admit(
      size: original.size, type: type, name: destination, globalLimit: settings.fileSizeLimit)
    let owner = caller.owner
    try tryUpload(
      destinationBucket, destination, owner: owner, upsert: upsert, metadata: .object(metadata),
      auth: caller.auth, route: .copy)
    let bytes = try files.duplicate(version: original.version)
    let version = StorageFiles.newVersion()
    try files.commit(bytes, version: version)
    metadata["lastModified"] = .string(Self.isoNow(now()))
    let written = try complete(
      destinationBucket, destination, version: version, owner: owner,
      metadata: .object(metadata), userMetadata: nil, upsert: upsert, uploader: caller.auth,
      route: .copy)
    return Self.json(
      .object([
        .init("Id", .string(written)), .init("Key", .string("\(destinationBucket)/\(destination)")),
        .init("name", .string(destination)), .init("bucket_id", .string(destinationBucket)),
        .init("owner", .string(owner.flatMap(Self.uuidOrNil) ?? "")),
        .init("owner_id", .string(owner ?? "")), .init("version", .string(version)),
        .init("id", .string(written)), .init("metadata", .object(metadata)),
      ]))
  }

  /// An ISO-8601 time with milliseconds in UTC, as Storage writes `lastModified`.
  static func isoNow(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}
