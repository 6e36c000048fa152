extension StorageStatement {
  /// One spelling of the statement (values quoted), which parses back to it.
  var canonicalText: String {
    func value(_ node: ValueNode) -> String { node.value.canonicalText }
    switch self {
    case .buckets:
      return "storage buckets"
    case .createBucket(let name, let isPublic, let limit, let types):
      var text = "storage create bucket " + value(name)
      if isPublic { text += " public" }
      if let limit { text += " limit " + value(limit) }
      if !types.isEmpty { text += " types " + types.map(value).joined(separator: ", ") }
      return text
    case .dropBucket(let name): return "storage drop bucket " + value(name)
    case .emptyBucket(let name): return "storage empty bucket " + value(name)
    case .list(let listing):
      var text = "storage ls " + value(listing.path)
      if let limit = listing.limit { text += " limit " + value(limit) }
      if let offset = listing.offset { text += " offset " + value(offset) }
      if let search = listing.search { text += " search " + value(search) }
      if let column = listing.sortColumn {
        text += " order by " + column + (listing.descending ? " desc" : "")
      }
      return text
    case .upload(let upload):
      var text = "storage upload " + value(upload.file) + " to " + value(upload.path)
      if let type = upload.contentType { text += " type " + value(type) }
      if upload.upsert { text += " upsert" }
      if let cache = upload.cache { text += " cache " + value(cache) }
      return text
    case .download(let path, let to, let isPublic):
      return "storage download " + value(path) + (to.map { " to " + value($0) } ?? "")
        + (isPublic ? " public" : "")
    case .move(let from, let to): return "storage mv " + value(from) + " to " + value(to)
    case .copy(let from, let to): return "storage cp " + value(from) + " to " + value(to)
    case .remove(let paths): return "storage rm " + paths.map(value).joined(separator: ", ")
    case .info(let path): return "storage info " + value(path)
    case .exists(let path): return "storage exists " + value(path)
    case .sign(let path, let expires, let download):
      return "storage sign " + value(path) + " expires " + value(expires)
        + (download ? " download" : "")
    case .url(let path, let download):
      return "storage url " + value(path) + (download ? " download" : "")
    }
  }
}
