#if canImport(Glibc)
  import Glibc
#endif

/// Reads a `multipart/form-data` body as it arrives, a piece at a time, without holding a part
/// whole: fields and a file part's bytes are handed on as they are found (RFC 7578). The
/// official clients (storage3, supabase-swift, storage-js with a Blob) upload this way.
///
/// ```swift
/// var reader = MultipartReader(boundary: "x123")
/// try reader.feed(bytes) { event in
///   switch event {
///   case .partStart(let name, let filename, let type): ...
///   case .data(let bytes): ...          // part of the current part's body
///   case .partEnd: ...
///   }
/// }
/// reader.isFinished   // the closing delimiter was read
/// ```
/// Throws `StorageFailure` (no content provided) for a body that is not one.
struct MultipartReader {
  enum Event {
    case partStart(name: String, filename: String?, contentType: String?)
    case data(UnsafeRawBufferPointer)
    case partEnd
  }

  enum Phase {
    /// Before the first delimiter.
    case preamble
    /// Just after a delimiter: `--` ends the body, CR LF starts a part's head.
    case afterDelimiter
    case head
    case body
    case finished
  }

  /// `CR LF -- boundary`: what ends a part's body.
  let delimiter: [UInt8]
  var phase = Phase.preamble
  var pending: [UInt8] = []

  init(boundary: String) {
    delimiter = Array("\r\n--\(boundary)".utf8)
  }

  var isFinished: Bool { phase == .finished }

  /// The boundary of a `multipart/form-data; boundary=...` type, or nil.
  static func boundary(of contentType: String) -> String? {
    for parameter in contentType.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2,
        pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
      else { continue }
      var value = pair[1].trimmingCharacters(in: .whitespaces)
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
        value = String(value.dropFirst().dropLast())
      }
      return value.isEmpty || value.utf8.count > 200 ? nil : value
    }
    return nil
  }

  mutating func feed(
    _ bytes: UnsafeRawBufferPointer, _ handle: (Event) throws(StorageFailure) -> Void
  ) throws(StorageFailure) {
    pending.append(contentsOf: bytes)
    var start = 0
    defer { pending.removeFirst(start) }
    while true {
      switch phase {
      case .finished:
        start = pending.count
        return
      case .preamble:
        // The first delimiter has no CR LF before it when it opens the body.
        let opening = delimiter[2...]
        if let found = Self.find(Array(opening), in: pending, from: start) {
          start = found + opening.count
          phase = .afterDelimiter
          continue
        }
        guard pending.count - start < 64 * 1024 else { throw .noContentProvided }
        start = max(start, pending.count - opening.count)
        return
      case .afterDelimiter:
        guard pending.count - start >= 2 else { return }
        if pending[start] == UInt8(ascii: "-") && pending[start + 1] == UInt8(ascii: "-") {
          phase = .finished
          continue
        }
        // Transport padding (spaces, tabs) may follow a delimiter, then CR LF.
        var index = start
        while index < pending.count, pending[index] == 0x20 || pending[index] == 0x09 { index += 1 }
        guard index + 1 < pending.count else { return }
        guard pending[index] == 0x0D, pending[index + 1] == 0x0A else { throw .noContentProvided }
        start = index + 2
        phase = .head
      case .head:
        guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending, from: start) else {
          guard pending.count - start < 16 * 1024 else { throw .noContentProvided }
          return
        }
        let head = String(decoding: pending[start..<end], as: UTF8.self)
        start = end + 4
        phase = .body
        let part = try Self.parsePartHead(head)
        try handle(.partStart(name: part.name, filename: part.filename, contentType: part.type))
      case .body:
        if let found = Self.find(delimiter, in: pending, from: start) {
          try emit(start..<found, handle)
          start = found + delimiter.count
          phase = .afterDelimiter
          try handle(.partEnd)
          continue
        }
        // Keep what could be the start of a delimiter split across pieces.
        let safe = max(start, pending.count - (delimiter.count - 1))
        try emit(start..<safe, handle)
        start = safe
        return
      }
    }
  }

  private func emit(_ range: Range<Int>, _ handle: (Event) throws(StorageFailure) -> Void)
    throws(StorageFailure)
  {
    guard !range.isEmpty else { return }
    let failure = pending.withUnsafeBytes { raw -> StorageFailure? in
      do throws(StorageFailure) {
        try handle(.data(UnsafeRawBufferPointer(rebasing: raw[range])))
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// The `name`, `filename` and `Content-Type` of a part's head.
  static func parsePartHead(_ head: String) throws(StorageFailure) -> (
    name: String, filename: String?, type: String?
  ) {
    var name: String?
    var filename: String?
    var type: String?
    for line in head.split(separator: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if field == "content-type" {
        type = value
      } else if field == "content-disposition" {
        for parameter in Self.parameters(value) {
          if parameter.key == "name" { name = parameter.value }
          if parameter.key == "filename" { filename = parameter.value }
        }
      }
    }
    guard let name else { throw .noContentProvided }
    return (name, filename, type)
  }

  /// The `key=value` parameters after the first `;` (quoted values unquoted).
  static func parameters(_ value: String) -> [(key: String, value: String)] {
    var result: [(String, String)] = []
    var rest = Substring(value)
    guard let first = rest.firstIndex(of: ";") else { return [] }
    rest = rest[rest.index(after: first)...]
    while !rest.isEmpty {
      rest = rest.drop { $0 == " " || $0 == "\t" || $0 == ";" }
      guard let equals = rest.firstIndex(of: "=") else { break }
      let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
      rest = rest[rest.index(after: equals)...]
      var text = ""
      if rest.first == "\"" {
        rest = rest.dropFirst()
        var escaped = false
        while let character = rest.first {
          rest = rest.dropFirst()
          if escaped {
            text.append(character)
            escaped = false
          } else if character == "\\" {
            escaped = true
          } else if character == "\"" {
            break
          } else {
            text.append(character)
          }
        }
      } else {
        let end = rest.firstIndex(of: ";") ?? rest.endIndex
        text = rest[..<end].trimmingCharacters(in: .whitespaces)
        rest = rest[end...]
      }
      result.append((key, text))
    }
    return result
  }

  /// The first index of `needle` in `haystack` at or after `from`.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard let first = needle.first, haystack.count - from >= needle.count else { return nil }
    var index = from
    let last = haystack.count - needle.count
    return haystack.withUnsafeBufferPointer { buffer -> Int? in
      guard let base = buffer.baseAddress else { return nil }
      while index <= last {
        guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
        let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if memcmp(base + position, needle, needle.count) == 0 { return position }
        index = position + 1
      }
      return nil
    }
  }
}
