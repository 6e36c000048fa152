import SNMGateway
import SNMWire

/// Takes an upload's body as it arrives: straight into a temporary file (with its MD5, the
/// object's ETag, computed on the way), or through ``MultipartReader`` for a form whose file part
/// goes to the file. Past the object's size limit it stops at once with Storage's 413. At the
/// end the file is renamed into place and the row written (``StorageGateway/complete``); if
/// anything fails, or the connection drops, the temporary file is removed: no partial object
/// is ever visible or left behind. Used by the one connection thread that streams the upload.
final class StorageUploadSink: HTTPBodySink {
  let gateway: StorageGateway
  private var state: State

  struct State {
    var upload: StorageUpload
    var form: MultipartReader?
    var file: StorageTemporaryFile?
    var digest: MD5Digest?
    /// The form's current part is the file (the first part with a filename).
    var inFile = false
    var fileDone = false
    var fieldName: String?
    var fieldValue: [UInt8] = []
    var fields: [String: String] = [:]
    /// The form's parts other than the file, and their names' and values' bytes, so far.
    var fieldCount = 0
    var fieldBytes = 0
  }

  /// The most parts a form may have besides its file, and the most bytes their names and values
  /// may take together: past either, 413 and the connection closes (a form's fields are held in
  /// memory; the clients send two or three).
  static let maxFields = 64
  static let maxFieldBytes = 1 << 20
  /// The most a form may hold besides its file's bytes: a preamble (64 KiB), the fields, and a
  /// head (16 KiB) and delimiter for each part. A form that says it is longer than its file's
  /// limit and this is refused before it is read.
  static let formOverhead = Int64(64 * 1024 + maxFieldBytes + (maxFields + 1) * (16 * 1024 + 256))

  init(gateway: StorageGateway, upload: StorageUpload, boundary: String?) throws(StorageFailure) {
    self.gateway = gateway
    var initial = State(upload: upload)
    if let boundary {
      initial.form = MultipartReader(boundary: boundary)
    } else {
      initial.file = try gateway.files.temporary()
      initial.digest = try Self.digest()
    }
    state = initial
  }

  static func digest() throws(StorageFailure) -> MD5Digest {
    do {
      return try MD5Digest()
    } catch {
      throw .internalError("MD5 is not available")
    }
  }

  func receive(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse? {
    do throws(StorageFailure) {
      if state.form == nil {
        try Self.write(bytes, into: &state)
      } else {
        try feedForm(bytes, &state)
      }
      return nil
    } catch {
      abandon()
      var failure = error
      failure.closesConnection = true
      return failure.response
    }
  }

  func finish(_ request: HTTPRequest) -> HTTPResponse {
    defer { abandon() }
    do throws(StorageFailure) {
      return try complete(&state)
    } catch {
      return error.response
    }
  }

  func abandon() {
    state.file?.discard()
    state.file = nil
  }

  /// Appends file bytes, held to the object's limit; the ETag's digest follows.
  static func write(_ bytes: UnsafeRawBufferPointer, into state: inout State)
    throws(StorageFailure)
  {
    guard let file = state.file else { return }
    guard file.bytes + Int64(bytes.count) <= state.upload.limit else {
      throw .entityTooLarge()
    }
    try file.write(bytes)
    do {
      try state.digest?.update(bytes)
    } catch {
      throw .internalError("MD5 failed")
    }
  }

  func feedForm(_ bytes: UnsafeRawBufferPointer, _ state: inout State) throws(StorageFailure) {
    guard var form = state.form else { return }
    defer { state.form = form }
    try form.feed(bytes) { (event) throws(StorageFailure) in
      switch event {
      case .partStart(let name, let filename, let type):
        if filename != nil && !state.fileDone && state.file == nil {
          try startFile(type: type, &state)
        } else {
          state.fieldCount += 1
          state.fieldBytes += name.utf8.count
          try Self.checkFields(state)
          state.fieldName = name
          state.fieldValue = []
        }
      case .data(let data):
        if state.inFile {
          try Self.write(data, into: &state)
        } else if state.fieldName != nil {
          state.fieldBytes += data.count
          try Self.checkFields(state)
          state.fieldValue.append(contentsOf: data)
        }
      case .partEnd:
        if state.inFile {
          state.inFile = false
          state.fileDone = true
        } else if let name = state.fieldName, !state.fileDone {
          state.fields[name] = String(decoding: state.fieldValue, as: UTF8.self)
        }
        state.fieldName = nil
        state.fieldValue = []
      }
    }
  }

  /// Holds the form's fields to ``maxFields`` and ``maxFieldBytes``.
  static func checkFields(_ state: State) throws(StorageFailure) {
    guard state.fieldCount <= maxFields else {
      throw .entityTooLarge(entity: "form", limit: "\(maxFields) fields")
    }
    guard state.fieldBytes <= maxFieldBytes else {
      throw .entityTooLarge(entity: "form's fields", limit: "\(maxFieldBytes) bytes")
    }
  }

  /// The form's file part begins: its type (or a `contentType` field) is checked against the
  /// bucket, and RLS asked, before any of its bytes are kept.
  func startFile(type: String?, _ state: inout State) throws(StorageFailure) {
    var upload = state.upload
    upload.mimetype = state.fields["contentType"] ?? type ?? "application/octet-stream"
    if let cache = state.fields["cacheControl"], !cache.isEmpty {
      upload.cacheControl = "max-age=\(cache)"
    } else {
      upload.cacheControl = "no-cache"
    }
    if let text = state.fields["metadata"] ?? state.fields["userMetadata"],
      let value = try? JSONValue(parsing: text), value.objectValue != nil
    {
      upload.userMetadata = value
    }
    upload.declaredLength = nil
    try upload.checkMetadata()
    try upload.checkType()
    try gateway.checkPolicy(upload)
    upload.policyChecked = true
    state.upload = upload
    state.file = try gateway.files.temporary()
    state.digest = try Self.digest()
    state.inFile = true
  }

  /// The bytes are all here: the file goes into place and the row is written.
  func complete(_ state: inout State) throws(StorageFailure) -> HTTPResponse {
    if let form = state.form, !form.isFinished || !state.fileDone { throw .noContentProvided }
    guard let file = state.file, let digest = state.digest else { throw .noContentProvided }
    let upload = state.upload
    let eTag: String
    do {
      eTag = "\"" + Crypto.hex(try digest.finish()) + "\""
    } catch {
      throw .internalError("MD5 failed")
    }
    let size = file.bytes
    let version = StorageFiles.newVersion()
    try gateway.files.commit(file, version: version)
    state.file = nil
    let metadata: JSONValue = .object([
      .init("eTag", .string(eTag)), .init("size", .int(Int(size))),
      .init("mimetype", .string(upload.mimetype)),
      .init("cacheControl", .string(upload.cacheControl)),
      .init("lastModified", .string(StorageGateway.isoNow(gateway.now()))),
      .init("contentLength", .int(Int(size))), .init("httpStatusCode", .int(200)),
    ])
    let id = try gateway.complete(
      upload.bucket, upload.name, version: version, owner: upload.owner, metadata: metadata,
      userMetadata: upload.userMetadata, upsert: upload.upsert, uploader: upload.uploader,
      route: upload.route)
    let key = "\(upload.bucket)/\(upload.name)"
    if case .uploadSigned = upload.route {
      return .json(status: 200, .object([.init("Key", .string(key))]))
    }
    return .json(status: 200, .object([.init("Id", .string(id)), .init("Key", .string(key))]))
  }
}
