import Foundation
import SNMSupabase
import SNMWire

/// What a Storage answer shows and binds: the rows of a listing (name, size, type, updated_at),
/// the buckets, an object's facts, `{"path", "signedURL", "expiresIn"}` for a signed URL,
/// `{"path", "exists"}`, or the server's answer to a write.
enum StorageResult {
  static func value(of response: SupabaseStorageResponse) -> JSONValue {
    let request = response.request
    let path = [request.bucket, request.path].compactMap { $0 }.joined(separator: "/")
    switch request.operation {
    case .list:
      guard case .array(let entries) = response.value else { return response.value }
      return .array(entries.map(listingRow))
    case .createSignedURL(let expiresIn, _):
      return .object(
        JSONObject([
          ("path", .string(path)), ("signedURL", .string(response.signedURL ?? "")),
          ("expiresIn", .int(expiresIn)),
        ]))
    case .exists:
      return .object(
        JSONObject([("path", .string(path)), ("exists", .bool(response.exists ?? false))]))
    case .download:
      var members: [(String, JSONValue)] = [("path", .string(path))]
      if let saved = response.savedFile {
        members += [("savedTo", .string(saved.path)), ("bytes", .int(Int(saved.bytes)))]
      } else {
        members.append(("bytes", .int(response.data.count)))
        if let text = text(of: response) { members.append(("text", .string(text))) }
      }
      members.append(("contentType", response.contentType.map { .string($0) } ?? .null))
      return .object(JSONObject(members))
    default:
      return response.value
    }
  }

  /// A listing entry as a row: folders end in `/` and have no size or type.
  static func listingRow(_ entry: JSONValue) -> JSONValue {
    let isFolder = entry["id"]?.isNull ?? true
    let name = entry["name"]?.stringValue ?? ""
    let metadata = entry["metadata"]
    return .object(
      JSONObject([
        ("name", .string(isFolder ? name + "/" : name)),
        ("size", isFolder ? .null : metadata?["size"] ?? .null),
        ("type", isFolder ? .null : metadata?["mimetype"] ?? .null),
        ("updated_at", entry["updated_at"] ?? .null),
      ]))
  }

  /// The one line the table formats print for results that are no rows; nil for the others.
  static func line(for value: JSONValue, response: SupabaseStorageResponse?) -> String? {
    if let url = value["publicURL"]?.stringValue { return url }
    guard let response else { return nil }
    let request = response.request
    let path = [request.bucket, request.path].compactMap { $0 }.joined(separator: "/")
    switch request.operation {
    case .createSignedURL: return response.signedURL
    case .exists: return response.exists == true ? "true" : "false"
    case .upload(let upload):
      let key = response.value["Key"]?.stringValue ?? path
      let size = sizeOf(upload.file).map { " (\(bytes($0)))" } ?? ""
      return "uploaded \(upload.file) to \(key)\(size)"
    case .download:
      guard let saved = response.savedFile else { return nil }
      return "downloaded \(path) to \(saved.path) (\(bytes(saved.bytes)))"
    case .move(let destination, let bucket):
      return "moved \(path) to \((bucket ?? request.bucket ?? "") + "/" + destination)"
    case .copy(let destination, let bucket):
      return "copied \(path) to \((bucket ?? request.bucket ?? "") + "/" + destination)"
    case .remove(let paths):
      let removed = response.value.arrayValue?.count ?? 0
      let skipped = paths.count - removed
      return "removed \(removed) of \(paths.count) \(paths.count == 1 ? "object" : "objects")"
        + (skipped > 0 ? " (\(skipped) not there or not yours to remove)" : "")
    case .createBucket: return "created bucket \(request.bucket ?? "")"
    case .deleteBucket: return "dropped bucket \(request.bucket ?? "")"
    case .emptyBucket: return "emptied bucket \(request.bucket ?? "")"
    case .listBuckets, .list, .info: return nil
    }
  }

  /// A download's bytes as text, when they are UTF-8 text of a text type (or JSON) with no
  /// control character but tab and line ends (no escape sequence reaches the terminal); a
  /// byte-order mark is kept, as every other byte.
  static func text(of response: SupabaseStorageResponse) -> String? {
    let type = (response.contentType ?? "").lowercased()
    guard
      type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
        || type.contains("csv")
    else { return nil }
    guard let text = String(validating: response.data, as: UTF8.self),
      !text.unicodeScalars.contains(where: {
        ($0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r")
          || (0x7F...0x9F).contains($0.value)
      })
    else { return nil }
    return text
  }

  static func binaryNote(_ response: SupabaseStorageResponse) -> String {
    let request = response.request
    let path = [request.bucket, request.path].compactMap { $0 }.joined(separator: "/")
    return "\(bytes(Int64(response.data.count))) of \(response.contentType ?? "binary data"); "
      + "save them with: storage download \(path) to FILE"
  }

  static func sizeOf(_ file: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? nil
  }

  /// `1 byte`, `48,213 bytes`.
  static func bytes(_ count: Int64) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    let number = formatter.string(from: NSNumber(value: count)) ?? String(count)
    return count == 1 ? "1 byte" : "\(number) bytes"
  }
}
