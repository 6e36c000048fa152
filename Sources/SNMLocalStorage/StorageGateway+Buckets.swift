import SNMGateway
import SNMWire

extension StorageGateway {
  /// GET /bucket: the buckets the caller's RLS lets it see (`limit`, `offset`, `sortColumn`,
  /// `sortOrder`, `search` as query parameters).
  func listBuckets(_ request: HTTPRequest, caller: StorageCaller) throws(StorageFailure)
    -> HTTPResponse
  {
    var conditions: [String] = []
    var parameters: [String?] = []
    if let search = request.queryValue("search"), !search.isEmpty {
      try StorageKey.text(search, field: "querystring/search")
      parameters.append("%" + Self.escapeLike(search) + "%")
      conditions.append("b.name ilike $\(parameters.count)")
    }
    var order = ""
    if let column = request.queryValue("sortColumn") {
      guard ["id", "name", "created_at", "updated_at"].contains(column) else {
        throw .validation(
          "querystring/sortColumn must be equal to one of the allowed values")
      }
      let direction = request.queryValue("sortOrder") == "desc" ? "desc" : "asc"
      order = " order by b.\(column) \(direction)"
    }
    var page = ""
    for (name, minimum) in [("limit", 1), ("offset", 0)] {
      guard let text = request.queryValue(name) else { continue }
      guard let number = Int(text), number >= minimum else {
        throw .validation("querystring/\(name) must be >= \(minimum)")
      }
      parameters.append(String(number))
      page += " \(name) $\(parameters.count)::bigint"
    }
    let filter = conditions.isEmpty ? "" : " where " + conditions.joined(separator: " and ")
    let sql =
      "select coalesce(json_agg(x.j), '[]') from (select \(StorageSQL.bucketJSON) as j "
      + "from storage.buckets b\(filter)\(order)\(page)) x"
    let text = try transaction(caller.auth, .listBuckets) { tx in
      try tx.execute(sql, parameters).scalar
    }
    return Self.compact(text ?? "[]")
  }

  /// GET /bucket/:id.
  func getBucket(_ id: String, caller: StorageCaller) throws(StorageFailure) -> HTTPResponse {
    let text = try transaction(caller.auth, .getBucket(id)) { tx in
      try tx.execute(
        "select \(StorageSQL.bucketJSON) from storage.buckets b where b.id = $1", [id]
      ).scalar
    }
    guard let text else { throw .noSuchBucket(id) }
    return Self.compact(text)
  }

  /// POST /bucket `{"name", "id"?, "public"?, "file_size_limit"?, "allowed_mime_types"?}`:
  /// inserted as the caller (RLS on `storage.buckets` decides), owned by its `sub`.
  func createBucket(_ request: HTTPRequest, caller: StorageCaller) throws(StorageFailure)
    -> HTTPResponse
  {
    let body = try jsonBody(request)
    let name = try requiredString(body, "name")
    let id = body["id"]?.stringValue ?? name
    guard name.trimmingSpaces.count == name.count else { throw .invalidBucketName(name) }
    _ = try StorageKey.bucket(name)
    _ = try StorageKey.bucket(id)
    let settings = try bucketSettings(body)
    let owner = caller.owner
    do {
      _ = try transaction(caller.auth, .createBucket) { tx in
        try tx.execute(
          """
          insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit,
            allowed_mime_types)
          values ($1, $2, $3::uuid, $4, $5::boolean, $6::bigint, $7::text[])
          """,
          [
            id, name, owner.flatMap(Self.uuidOrNil), owner, settings.isPublic ? "true" : "false",
            settings.fileSizeLimit.map(String.init),
            settings.allowedMimeTypes.map(SQLText.arrayLiteral),
          ])
      }
    } catch let failure where failure.code == "ResourceAlreadyExists" {
      throw .bucketAlreadyExists(id)
    }
    return Self.json(.object([.init("name", .string(name))]))
  }

  /// PUT /bucket/:id: `public`, `file_size_limit`, `allowed_mime_types`.
  func updateBucket(_ id: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    _ = try StorageKey.bucket(id)
    let body = try jsonBody(request)
    guard
      body["public"] != nil || body["file_size_limit"] != nil
        || body["allowed_mime_types"] != nil
    else { throw .noContentProvided }
    let settings = try bucketSettings(body)
    var sets: [String] = []
    var parameters: [String?] = [id]
    if body["public"] != nil {
      parameters.append(settings.isPublic ? "true" : "false")
      sets.append("public = $\(parameters.count)::boolean")
    }
    if body["file_size_limit"] != nil {
      parameters.append(settings.fileSizeLimit.map(String.init))
      sets.append("file_size_limit = $\(parameters.count)::bigint")
    }
    if body["allowed_mime_types"] != nil {
      parameters.append(settings.allowedMimeTypes.map(SQLText.arrayLiteral))
      sets.append("allowed_mime_types = $\(parameters.count)::text[]")
    }
    let sql =
      "update storage.buckets set \(sets.joined(separator: ", ")), updated_at = now() where id = $1"
    let changed = try transaction(caller.auth, .updateBucket(id)) { tx in
      try tx.execute(sql, parameters).affectedRows
    }
    guard changed > 0 else { throw .noSuchBucket(id) }
    return Self.message("Successfully updated")
  }

  /// DELETE /bucket/:id: only an empty bucket, deleted as the caller.
  func deleteBucket(_ id: String, caller: StorageCaller) throws(StorageFailure) -> HTTPResponse {
    let route = StorageRoute.deleteBucket(id)
    let deleted = try transaction(caller.auth, route) { tx -> Int in
      _ = try tx.execute(RequestRole(role: "service_role").prelude)
      let found = try tx.execute(
        "select 1 from storage.buckets where id = $1 for update", [id]
      ).rows.count
      guard found > 0 else { throw StorageFailure.noSuchBucket(id) }
      let objects = try tx.execute(
        "select 1 from storage.objects where bucket_id = $1 limit 1", [id]
      ).rows.count
      guard objects == 0 else { throw StorageFailure.bucketNotEmpty(id) }
      _ = try tx.execute(RequestRole(role: caller.auth.role).prelude)
      return try tx.execute("delete from storage.buckets where id = $1", [id]).affectedRows
    }
    guard deleted > 0 else { throw .noSuchBucket(id) }
    return Self.message("Successfully deleted")
  }

  /// POST /bucket/:id/empty: every object the caller may delete goes, bytes and rows.
  func emptyBucket(_ id: String, caller: StorageCaller) throws(StorageFailure) -> HTTPResponse {
    let route = StorageRoute.emptyBucket(id)
    let versions = try transaction(caller.auth, route) { tx -> [String] in
      let visible = try tx.execute("select 1 from storage.buckets where id = $1", [id]).rows.count
      guard visible > 0 else { throw StorageFailure.noSuchBucket(id) }
      let count =
        Int(
          try tx.execute(
            "select count(*) from (select 1 from storage.objects where bucket_id = $1 limit $2) c",
            [id, String(settings.emptyBucketMax + 1)]
          ).scalar ?? "0") ?? 0
      guard count <= settings.emptyBucketMax else {
        throw StorageFailure.unableToEmpty(
          "Unable to empty the bucket because it contains too many objects")
      }
      return try tx.execute(
        "delete from storage.objects where bucket_id = $1 returning version", [id]
      ).rows.compactMap { $0.first ?? nil }
    }
    for version in versions { files.remove(version: version) }
    return Self.message("Successfully emptied")
  }

  /// A bucket's settings from a create or update body, checked as Storage checks them.
  func bucketSettings(_ body: JSONObject) throws(StorageFailure) -> (
    isPublic: Bool, fileSizeLimit: Int64?, allowedMimeTypes: [String]?
  ) {
    var isPublic = false
    if let value = body["public"], !value.isNull {
      guard let flag = value.boolValue else { throw .validation("body/public must be boolean") }
      isPublic = flag
    }
    var limit: Int64?
    switch body["file_size_limit"] {
    case nil, .null?:
      limit = nil
    case .number(let number)?:
      guard let bytes = number.intValue, bytes >= 0 else { throw .invalidFileSizeLimit }
      limit = Int64(bytes)
    case .string(let text)?:
      guard let bytes = Self.parseSize(text) else { throw .invalidFileSizeLimit }
      limit = bytes
    default:
      throw .invalidFileSizeLimit
    }
    if let limit, limit > settings.fileSizeLimit {
      throw .entityTooLarge(entity: "file size limit", limit: "the global maximum file size")
    }
    var types: [String]?
    switch body["allowed_mime_types"] {
    case nil, .null?:
      types = nil
    case .array(let items)?:
      var list: [String] = []
      for item in items {
        guard let text = item.stringValue else {
          throw .validation("body/allowed_mime_types must be array")
        }
        if text.isEmpty { continue }
        guard Self.isMimePattern(text) else { throw .invalidMimeType(text) }
        list.append(text)
      }
      types = list
    default:
      throw .validation("body/allowed_mime_types must be array")
    }
    return (isPublic, limit, types)
  }

  /// Storage's `parseFileSizeToBytes`: `20GB`, `20MB`, `30KB`, `3B` (decimal units), or a number.
  static func parseSize(_ text: String) -> Int64? {
    if let bytes = Int64(text), bytes >= 0 { return bytes }
    let upper = text.uppercased()
    for (unit, factor) in [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("B", 1.0)]
    where upper.hasSuffix(unit) {
      let digits = upper.dropLast(unit.count)
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        digits.first != ".", let value = Double(digits)
      else { return nil }
      return Int64((value * factor).rounded())
    }
    return nil
  }

  /// A MIME type or pattern Storage's `validateMimeType` accepts (`image/png`, `image/*`,
  /// `text/plain; charset=utf-8`).
  static func isMimePattern(_ text: String) -> Bool {
    guard text.count <= 1000, !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
      return false
    }
    if text.hasSuffix("*") { return true }
    let token = { (part: Substring) in
      !part.isEmpty
        && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-+.".contains($0)) }
    }
    let pieces = text.split(separator: ";", maxSplits: 1)
    let main = pieces[0].split(separator: "/", omittingEmptySubsequences: false)
    guard main.count == 2, token(main[0]), token(main[1]) else { return false }
    if pieces.count == 2 {
      let parameter = pieces[1].trimmingCharacters(in: .whitespaces).lowercased()
      guard parameter.hasPrefix("charset="), token(parameter.dropFirst(8)[...]) else {
        return false
      }
    }
    return true
  }

  /// `text` when it is a UUID (Storage keeps `owner` only then; `owner_id` always).
  static func uuidOrNil(_ text: String) -> String? {
    let hex = text.replacingOccurrences(of: "-", with: "")
    guard text.count == 36, hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
    return text
  }

  /// `%`, `_` and `\` escaped for LIKE.
  static func escapeLike(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result
  }
}
