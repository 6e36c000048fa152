extension Checker {
  /// A Storage statement: its variables, counts that are numbers, object paths with a bucket,
  /// and one bucket for `rm`.
  mutating func check(_ storage: StorageStatement) {
    for value in storage.values { checkVariables(in: value) }
    switch storage {
    case .list(let listing):
      if let limit = listing.limit { checkCount(limit, clause: "limit") }
      if let offset = listing.offset { checkCount(offset, clause: "offset") }
    case .upload(let upload):
      checkObjectPath(upload.path)
      if let cache = upload.cache { checkCount(cache, clause: "cache") }
    case .download(let path, let to, _):
      checkObjectPath(path)
      // `to FILE`: a file a `run` after it may name (``writesFile``).
      if to != nil { writesFile = true }
    case .info(let path), .exists(let path), .url(let path, _):
      checkObjectPath(path)
    case .sign(let path, let expires, _):
      checkObjectPath(path)
      checkCount(expires, clause: "expires")
    case .move(let from, let to), .copy(let from, let to):
      checkObjectPath(from)
      checkObjectPath(to)
    case .remove(let paths):
      for path in paths { checkObjectPath(path) }
      let buckets = paths.compactMap { Self.literalBucket($0) }
      var distinct: [String] = []
      for bucket in buckets where !distinct.contains(bucket) { distinct.append(bucket) }
      if distinct.count > 1,
        let second = paths.first(where: { Self.literalBucket($0) == distinct[1] })
      {
        report(
          .storageBuckets(distinct), at: second.range,
          help: "write one 'storage rm' per bucket")
      }
    case .buckets, .createBucket, .dropBucket, .emptyBucket:
      break
    }
  }

  /// A path written out must hold a `/` with something on both sides of it.
  mutating func checkObjectPath(_ node: ValueNode) {
    guard case .string(let literal) = node.value, let text = literal.constantText else { return }
    let trimmed = text.drop { $0 == "/" }
    guard let slash = trimmed.firstIndex(of: "/"), trimmed[slash...].contains(where: { $0 != "/" })
    else {
      report(
        .storagePathWithoutBucket(text), at: node.range,
        help: "for example 'avatars/dogs/bori.jpg': the bucket, then the path inside it")
      return
    }
  }

  /// The bucket of a path written out (its text before the first `/`).
  static func literalBucket(_ node: ValueNode) -> String? {
    guard case .string(let literal) = node.value, let text = literal.constantText else {
      return nil
    }
    return text.split(separator: "/").first.map(String.init)
  }
}
