import Foundation
import SNMWire

/// Why a plain HTTP exchange failed, before it is worded as an ``SNMNetworkError``.
enum PlainHTTPFailure: Error, Equatable {
  case unreachable(String)
  case timedOut
  case cancelled
  /// The connection ended early; `receivedNothing` means not one byte of an answer came (a kept
  /// connection the server had closed: the request may be sent again on a new one).
  case closedEarly(receivedNothing: Bool)
  case malformed(String)
  /// The body passed the request's limit (bytes).
  case tooLarge(Int)
}

/// One HTTP answer: status, header fields as sent, the body, and whether the connection may be
/// used again.
struct PlainHTTPAnswer {
  var status: Int
  var headers: [HTTPHeaders.Field]
  var body: Data
  var keepAlive: Bool
}

/// Reads an HTTP/1.1 answer from a stream of chunks: status line, fields, then a body framed by
/// `Content-Length`, `chunked`, or the end of the stream.
///
/// ```swift
/// var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: 256 << 20)
/// let answer = try reader.readAnswer(isHead: false) { try connection.nextChunk() }
/// ```
struct PlainHTTPReader {
  private var buffer: [UInt8]
  private var start = 0
  private var receivedAny = false
  /// The largest body read; a larger one throws `.tooLarge` (before it is allocated, when its size
  /// is announced).
  let maximumBodyBytes: Int
  /// Bytes after the answer.
  var unread: [UInt8] { Array(buffer[start...]) }

  init(buffered: [UInt8], maximumBodyBytes: Int) {
    buffer = buffered
    receivedAny = !buffered.isEmpty
    self.maximumBodyBytes = maximumBodyBytes
  }

  typealias Source = () throws(PlainHTTPFailure) -> [UInt8]

  mutating func readAnswer(isHead: Bool, from next: Source) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    while true {
      let head = try readHead(from: next)
      var answer = try Self.parseHead(head)
      // 1xx answers (100 Continue) come before the real one.
      if (100..<200).contains(answer.status) { continue }
      let fields = answer.headers
      let transfer = Self.value("transfer-encoding", in: fields)?.lowercased()
      if isHead || answer.status == 204 || answer.status == 304 {
        answer.body = Data()
      } else if let transfer, transfer.contains("chunked") {
        answer.body = Data(try readChunked(from: next))
      } else if let length = Self.value("content-length", in: fields) {
        guard let count = Int(length.trimmingCharacters(in: .whitespaces)), count >= 0 else {
          throw .malformed("the answer is not valid HTTP (bad Content-Length)")
        }
        answer.body = try readBody(count, from: next)
      } else {
        answer.body = try readToEnd(from: next)
        answer.keepAlive = false
      }
      return answer
    }
  }

  private mutating func fill(from next: Source) throws(PlainHTTPFailure) -> Bool {
    let chunk = try next()
    if chunk.isEmpty { return false }
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: chunk)
    receivedAny = true
    return true
  }

  private mutating func readHead(from next: Source) throws(PlainHTTPFailure) -> ArraySlice<UInt8> {
    var searched = start
    while true {
      if buffer.count - start >= 4 {
        var index = max(start, searched - 3)
        while index + 3 < buffer.count {
          if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
            && buffer[index + 3] == 10
          {
            let head = buffer[start..<index]
            start = index + 4
            return head
          }
          index += 1
        }
        searched = buffer.count
      }
      if buffer.count - start > 64 * 1024 {
        throw .malformed("the answer is not valid HTTP (header section too large)")
      }
      guard try fill(from: next) else {
        throw .closedEarly(receivedNothing: !receivedAny)
      }
      // Something other than HTTP (an SSH banner) says so in its first bytes.
      let prefix = Array("HTTP/".utf8)
      let seen = buffer[start..<min(buffer.count, start + prefix.count)]
      if !seen.elementsEqual(prefix.prefix(seen.count)) {
        throw .malformed("the answer is not valid HTTP (Received HTTP/0.9 when not allowed)")
      }
    }
  }

  /// The status line and fields of `head` (the bytes before the empty line).
  ///
  /// An ASCII head (every head a Supabase server sends) is read as bytes: lines end at CR LF, a
  /// field's name ends at its first colon, its value loses the spaces and tabs around it. Splitting
  /// it as a `String` by grapheme and trimming through Foundation took a quarter of a script's
  /// instructions. Any other head is read as text, as before.
  static func parseHead(_ head: ArraySlice<UInt8>) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    guard head.allSatisfy({ $0 < 0x80 }) else { return try parseHeadAsText(head) }
    var lines = Self.lines(head)[...]
    guard let statusBytes = lines.popFirst(), statusBytes.starts(with: Self.httpPrefix) else {
      throw .malformed("the answer is not valid HTTP (Received HTTP/0.9 when not allowed)")
    }
    var fields: [HTTPHeaders.Field] = []
    fields.reserveCapacity(lines.count)
    for line in lines where !line.isEmpty {
      guard let field = HTTPHeaders.Field(headerLine: line) else {
        throw .malformed("the answer is not valid HTTP (bad header line)")
      }
      fields.append(field)
    }
    return try answer(statusLine: String(decoding: statusBytes, as: UTF8.self), fields: fields)
  }

  /// `parseHead` for a head with non-ASCII bytes: lines split as text.
  static func parseHeadAsText(_ head: ArraySlice<UInt8>) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    let text = String(decoding: head, as: UTF8.self)
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
    guard let statusLine = lines.popFirst(), statusLine.hasPrefix("HTTP/") else {
      throw .malformed("the answer is not valid HTTP (Received HTTP/0.9 when not allowed)")
    }
    var fields: [HTTPHeaders.Field] = []
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else {
        throw .malformed("the answer is not valid HTTP (bad header line)")
      }
      let name = String(line[..<colon])
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      fields.append(HTTPHeaders.Field(name: name, value: value))
    }
    return try answer(statusLine: String(statusLine), fields: fields)
  }

  /// The answer for a status line (known to start with `HTTP/`) and its fields.
  private static func answer(statusLine: String, fields: [HTTPHeaders.Field])
    throws(PlainHTTPFailure) -> PlainHTTPAnswer
  {
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    guard parts.count >= 2, let status = Int(parts[1]), (100...999).contains(status) else {
      throw .malformed("the answer is not valid HTTP (bad status line)")
    }
    let connection = value("connection", in: fields)?.lowercased() ?? ""
    let keepAlive =
      parts[0] == "HTTP/1.0" ? connection.contains("keep-alive") : !connection.contains("close")
    return PlainHTTPAnswer(status: status, headers: fields, body: Data(), keepAlive: keepAlive)
  }

  static let httpPrefix = Array("HTTP/".utf8)

  /// `head` split at each CR LF, empty lines kept.
  static func lines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = head.startIndex
    var index = head.startIndex
    while index + 1 < head.endIndex {
      if head[index] == 13 && head[index + 1] == 10 {
        lines.append(head[lineStart..<index])
        index += 2
        lineStart = index
      } else {
        index += 1
      }
    }
    lines.append(head[lineStart..<head.endIndex])
    return lines
  }

  /// The value of the first field named `name` (lowercase ASCII), compared without case.
  static func value(_ name: String, in fields: [HTTPHeaders.Field]) -> String? {
    fields.first { Self.namesMatch($0.name, lowercase: name) }?.value
  }

  /// Whether `name` lowercased is `lowercase`, without making the lowercased copy for ASCII.
  static func namesMatch(_ name: String, lowercase: String) -> Bool {
    var candidate = name.utf8.makeIterator()
    for expected in lowercase.utf8 {
      guard var byte = candidate.next() else { return false }
      if byte >= 0x80 { return name.lowercased() == lowercase }
      if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
      if byte != expected { return false }
    }
    guard let extra = candidate.next() else { return true }
    return extra >= 0x80 && name.lowercased() == lowercase
  }

  private mutating func readExactly(_ count: Int, from next: Source) throws(PlainHTTPFailure)
    -> [UInt8]
  {
    if start > 0 {
      buffer.removeSubrange(..<start)
      start = 0
    }
    buffer.reserveCapacity(count)
    while buffer.count - start < count {
      guard try fillInBody(from: next) else {
        throw Self.cutOff(
          "transfer closed with \(count - (buffer.count - start)) bytes remaining to read")
      }
    }
    if start == 0 && buffer.count == count {
      // The usual case for a large body: hand the buffer over rather than copy it.
      defer { buffer = [] }
      return buffer
    }
    let body = Array(buffer[start..<(start + count)])
    start += count
    return body
  }

  /// A `Content-Length` body, gathered straight into the `Data` the response keeps, so a large
  /// body is never held twice (once as bytes read, once as the response's copy).
  private mutating func readBody(_ count: Int, from next: Source) throws(PlainHTTPFailure) -> Data {
    guard count <= maximumBodyBytes else { throw .tooLarge(maximumBodyBytes) }
    var body = Data(capacity: min(count, Self.largestReservation))
    while true {
      let take = min(buffer.count - start, count - body.count)
      if take > 0 {
        body.append(contentsOf: buffer[start..<start + take])
        start += take
      }
      if body.count == count { return body }
      guard try fillInBody(from: next) else {
        throw Self.cutOff("transfer closed with \(count - body.count) bytes remaining to read")
      }
    }
  }

  /// The most a `Content-Length` may make the reader set aside before the bytes arrive.
  static let largestReservation = 1 << 30

  /// A body that ends with the connection, gathered straight into the `Data` kept (a 300 MB one
  /// took 13 times its size when the receive buffer grew and was copied twice), up to the limit.
  private mutating func readToEnd(from next: Source) throws(PlainHTTPFailure) -> Data {
    var body = Data(buffer[start...])
    buffer = []
    start = 0
    while true {
      guard body.count <= maximumBodyBytes else { throw .tooLarge(maximumBodyBytes) }
      let chunk = try next()
      if chunk.isEmpty { return body }
      body.append(contentsOf: chunk)
    }
  }

  private mutating func readLine(from next: Source) throws(PlainHTTPFailure) -> String {
    while true {
      if let end = buffer[start...].firstIndex(of: 10) {
        var line = buffer[start..<end]
        if line.last == 13 { line = line.dropLast() }
        start = end + 1
        return String(decoding: line, as: UTF8.self)
      }
      guard try fill(from: next) else { throw .closedEarly(receivedNothing: false) }
    }
  }

  /// `fill`, where the connection ending (closed or reset) means the body was cut off: false.
  private mutating func fillInBody(from next: Source) throws(PlainHTTPFailure) -> Bool {
    do {
      return try fill(from: next)
    } catch {
      if case .closedEarly = error { return false }
      throw error
    }
  }

  /// The server went away while the body came (it died, or its connection was cut): an answer
  /// that must not be shown, worded as curl words it.
  static func cutOff(_ detail: String) -> PlainHTTPFailure {
    .malformed("the answer was cut off (\(detail))")
  }

  private mutating func readChunked(from next: Source) throws(PlainHTTPFailure) -> [UInt8] {
    do {
      return try readChunks(from: next)
    } catch {
      guard case .closedEarly = error else { throw error }
      throw Self.cutOff("transfer closed with outstanding read data remaining")
    }
  }

  private mutating func readChunks(from next: Source) throws(PlainHTTPFailure) -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let line = try readLine(from: next)
      let sizeText = line.split(separator: ";", maxSplits: 1).first ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0
      else { throw .malformed("the answer is not valid HTTP (bad chunk size)") }
      if size == 0 {
        // Trailer fields, then an empty line.
        while try !readLine(from: next).isEmpty {}
        return body
      }
      guard size <= maximumBodyBytes - body.count else { throw .tooLarge(maximumBodyBytes) }
      body.append(contentsOf: try readExactly(size, from: next))
      _ = try readLine(from: next)
    }
  }
}
