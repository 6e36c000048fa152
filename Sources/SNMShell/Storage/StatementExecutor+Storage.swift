import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

extension StatementExecutor {
  /// The Storage manager statements compile against: this project, the shared provider, the
  /// session's token per request (as the DB manager).
  var storageManager: SupabaseStorageManager {
    if Self.runningAsService, let serviceProvider {
      return SupabaseStorageManager(
        config: serviceConfig, provider: serviceProvider, accessToken: { nil })
    }
    return SupabaseStorageManager(
      config: project.supabaseConfig, provider: provider,
      accessToken: { [sessions] in try await sessions.requestToken() })
  }

  /// Compiles a Storage statement; prints the diagnostic and throws the failure when it cannot
  /// be sent.
  func compileStorage(_ statement: Statement, in source: Source, directory: String?)
    async
    throws(StatementFailure) -> StorageCompiler.Compiled
  {
    do {
      return try StorageCompiler(
        manager: storageManager, scope: await variableScope(), baseDirectory: directory
      ).compile(statement)
    } catch {
      throw failure(error, in: source)
    }
  }

  /// How a Storage statement's request ended: its result as a value (for `let`) and the answer,
  /// or what stopped it.
  enum StorageAnswer {
    case answered(JSONValue, SupabaseStorageResponse?)
    case stopped(StatementResult)
  }

  /// Sends a Storage statement's request (Ctrl-C cancels it); a failure is printed.
  func performStorage(_ statement: Statement, in source: Source, directory: String?) async
    -> StorageAnswer
  {
    let compiled: StorageCompiler.Compiled
    do { compiled = try await compileStorage(statement, in: source, directory: directory) } catch {
      return .stopped(.failed(error))
    }
    switch compiled {
    case .url(let url):
      return .answered(.object(JSONObject([("publicURL", .string(url))])), nil)
    case .request(let builder, _):
      let spinner = Spinner.start(label: "waiting for \(project.name)", enabled: interactive)
      let outcome = await sendCancellable { try await builder.request() }
      spinner.stop()
      switch outcome {
      case .done(let response):
        return .answered(StorageResult.value(of: response), response)
      case .failed(let error):
        return .stopped(.failed(requestFailure(error)))
      case .interrupted(let signal):
        return .stopped(.interrupted(signal))
      }
    }
  }

  /// `storage ...`: the request, then its result in the current format.
  func runStorage(_ statement: Statement, in source: Source, directory: String?) async
    -> StatementResult
  {
    switch await performStorage(statement, in: source, directory: directory) {
    case .stopped(let result):
      return result
    case .answered(let value, let response):
      if let response { catalog.noteStorage(response) }
      let outcome = StatementOutcome.answered(value: value, status: response?.status)
      if var failure = await showStorage(value, response: response) {
        failure.outcome = outcome
        return .failed(failure)
      }
      return .succeeded(outcome)
    }
  }

  /// A Storage result: listings as rows; a URL, a saved file or a write as one line at the table
  /// formats; the value itself as JSON.
  func showStorage(_ value: JSONValue, response: SupabaseStorageResponse?) async
    -> StatementFailure?
  {
    let format = currentSettings.format
    let lineFormats = format == .table || format == .expanded
    if let line = StorageResult.line(for: value, response: response), lineFormats {
      // Keys, paths and URLs the server answered: shown with control characters escaped.
      emit(VisibleText.escaped(line))
      return nil
    }
    if let response, case .download = response.request.operation, response.savedFile == nil {
      if let text = StorageResult.text(of: response), lineFormats || format == .csv {
        emitRaw(text)
        return nil
      }
      if lineFormats {
        emit(StorageResult.binaryNote(response))
        return nil
      }
    }
    return await render(value, defaultColumn: "value")
  }
}

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
  /// control character but tab and line ends (no escape sequence reaches the terminal).
  static func text(of response: SupabaseStorageResponse) -> String? {
    let type = (response.contentType ?? "").lowercased()
    guard
      type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
        || type.contains("csv")
    else { return nil }
    guard let text = String(data: response.data, encoding: .utf8),
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
