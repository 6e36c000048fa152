import SNMNetwork
import SNMWire

extension SupabaseStorageRequest {
  /// The chain that built this request, as Swift:
  /// `try await remoteStorageManager.from("avatars").setPath("a/bori.jpg").info().request()`.
  public func swiftChain() -> String {
    var text = "try await remoteStorageManager"
    for call in calls {
      switch call {
      case .start(let operation, let bucket):
        text += "." + operation.swiftName + "("
        if case .createBucket(let options) = operation {
          text += SwiftLiteral.string(bucket ?? "") + Self.swiftOptions(options)
        }
        text += ")"
      case .from(let bucket):
        text += ".from(" + SwiftLiteral.string(bucket) + ")"
      case .setPath(let path):
        text += ".setPath(" + SwiftLiteral.string(path) + ")"
      case .operation(let operation):
        text += "." + operation.swiftName + "(" + Self.swiftArguments(operation) + ")"
      }
    }
    return text + ".request()"
  }

  static func swiftOptions(_ options: SupabaseStorageBucketOptions) -> String {
    var parts: [String] = []
    if options.isPublic { parts.append("isPublic: true") }
    if let limit = options.fileSizeLimit {
      parts.append("fileSizeLimit: " + SwiftLiteral.string(limit))
    }
    if let types = options.allowedMimeTypes {
      parts.append(
        "allowedMimeTypes: [" + types.map(SwiftLiteral.string).joined(separator: ", ") + "]")
    }
    return parts.isEmpty ? "" : ", options: .init(" + parts.joined(separator: ", ") + ")"
  }

  static func swiftArguments(_ operation: SupabaseStorageOperation) -> String {
    switch operation {
    case .listBuckets, .createBucket, .deleteBucket, .emptyBucket, .info, .exists:
      return ""
    case .list(let options):
      var parts = ["prefix: " + SwiftLiteral.string(options.prefix)]
      let defaults = SupabaseStorageListOptions()
      if options.limit != defaults.limit { parts.append("limit: \(options.limit)") }
      if options.offset != defaults.offset { parts.append("offset: \(options.offset)") }
      if let search = options.search { parts.append("search: " + SwiftLiteral.string(search)) }
      if options.sortColumn != defaults.sortColumn {
        parts.append("sortColumn: " + SwiftLiteral.string(options.sortColumn))
      }
      if options.descending { parts.append("descending: true") }
      return ".init(" + parts.joined(separator: ", ") + ")"
    case .remove(let paths):
      return "paths: [" + paths.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    case .upload(let upload):
      var parts = ["file: " + SwiftLiteral.string(upload.file)]
      if let type = upload.contentType { parts.append("contentType: " + SwiftLiteral.string(type)) }
      if upload.upsert { parts.append("upsert: true") }
      if upload.cacheControl != 3600 { parts.append("cacheControl: \(upload.cacheControl)") }
      return ".init(" + parts.joined(separator: ", ") + ")"
    case .download(let download):
      var parts: [String] = []
      if let destination = download.destination {
        parts.append("destination: " + SwiftLiteral.string(destination))
      }
      if download.isPublic { parts.append("isPublic: true") }
      return parts.isEmpty ? "" : ".init(" + parts.joined(separator: ", ") + ")"
    case .createSignedURL(let expiresIn, let download):
      var text = "expiresIn: \(expiresIn)"
      switch download {
      case nil: break
      case .originalName?: text += ", download: .originalName"
      case .named(let name)?: text += ", download: .named(" + SwiftLiteral.string(name) + ")"
      }
      return text
    case .move(let destination, let bucket), .copy(let destination, let bucket):
      return "to: " + SwiftLiteral.string(destination)
        + (bucket.map { ", bucket: " + SwiftLiteral.string($0) } ?? "")
    }
  }

  /// A curl command line that sends this request (``CurlCommand``): an upload reads its file
  /// (`--data-binary @file`), a download into a file writes it (`-o file`).
  public func curlCommand(multiline: Bool = true) -> String {
    CurlCommand.line(for: endpoint, url: url, body: body, multiline: multiline)
  }

  /// The explain object, in the DB requests' shape (`method`, `path`, `query`, `url`, `headers`,
  /// `body`, `swift`), with `upload` (the file the body streams from) and `download_to` when set.
  public func explainJSON() -> JSONValue {
    var headers = JSONObject()
    for field in endpoint.headers { headers[field.name] = .string(field.value) }
    var object: JSONObject = [
      "method": .string(endpoint.method.rawValue),
      "path": .string(URLPath.of(url)),
      "query": .array(endpoint.query.map { [.string($0.name), .string($0.value)] }),
      "url": .string(url),
      "headers": .object(headers),
      "body": body ?? .null,
    ]
    if let file = endpoint.bodyFile { object["upload"] = .string(file) }
    if let file = endpoint.responseFile { object["download_to"] = .string(file) }
    object["swift"] = .string(swiftChain())
    return .object(object)
  }
}
