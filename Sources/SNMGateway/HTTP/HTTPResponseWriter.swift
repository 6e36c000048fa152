import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serialises responses: status line, the handler's fields, then `Content-Length`, `Date`,
/// `Connection` as the server decides.
enum HTTPResponseWriter {
  /// The bytes of `response`; `bodyless` (HEAD, 204, 304) sends the length but not the body.
  /// Measured, then written straight into one buffer of that size (`HTTPHeadBytes`).
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, bodyless: Bool) -> [UInt8] {
    let streamed = response.bodyStream != nil
    let sendsBody = !bodyless && response.status != 204 && response.status != 304
    let reason = response.reason ?? HTTPStatus.reason(response.status)
    let date = DateHeader.shared.now()
    // Content-Length, unless the body is streamed or the status has none.
    let length: Int64? =
      streamed || response.status == 204 || response.status < 200
      ? nil : response.bodyFile.map(\.length) ?? Int64(response.body.count)
    let fields = response.headers.fields
    var room = 96 + reason.utf8.count + date.utf8.count + 2 * HTTPHeadBytes.numberRoom
    for field in fields { room += field.name.utf8.count + field.value.utf8.count + 4 }
    if sendsBody { room += response.body.count + (streamed ? HTTPHeadBytes.numberRoom + 4 : 0) }
    return [UInt8](unsafeUninitializedCapacity: room) { buffer, written in
      var head = HTTPHeadBytes(buffer)
      head.append("HTTP/1.1 ")
      head.appendDecimal(Int64(response.status))
      head.append(UInt8(ascii: " "))
      head.appendSanitized(reason)
      head.append("\r\n")
      for field in fields where !isFramingName(field.name) {
        head.appendSanitized(field.name)
        head.append(": ")
        head.appendSanitized(field.value)
        head.append("\r\n")
      }
      if streamed {
        if !bodyless { head.append("Transfer-Encoding: chunked\r\n") }
      } else if let length {
        head.append("Content-Length: ")
        head.appendDecimal(length)
        head.append("\r\n")
      }
      head.append("Date: ")
      head.appendSanitized(date)
      head.append("\r\n")
      if !keepAlive { head.append("Connection: close\r\n") }
      head.append("\r\n")
      if sendsBody {
        if streamed {
          if !response.body.isEmpty {
            head.appendHex(response.body.count)
            head.append("\r\n")
            head.append(response.body)
            head.append("\r\n")
          }
        } else {
          head.append(response.body)
        }
      }
      written = head.count
    }
  }

  /// Whether `name` is one of the framing fields the server writes itself (`Content-Length`,
  /// `Connection`, `Transfer-Encoding`), ASCII letters compared without case as
  /// `HTTPHeaders.sameName` does; told apart by length before any byte is compared.
  static func isFramingName(_ name: String) -> Bool {
    let framing: StaticString
    switch name.utf8.count {
    case 14: framing = "content-length"
    case 10: framing = "connection"
    case 17: framing = "transfer-encoding"
    default: return false
    }
    var name = name
    return name.withUTF8 { bytes in
      for index in 0..<bytes.count {
        let byte = bytes[index]
        let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        if lower != framing.utf8Start[index] { return false }
      }
      return true
    }
  }

  /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF.
  static func chunk(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var framed = Array(String(bytes.count, radix: 16).utf8)
    framed.reserveCapacity(framed.count + bytes.count + 4)
    framed += [13, 10]
    framed.append(contentsOf: bytes)
    framed += [13, 10]
    return framed
  }

  /// The last chunk of a chunked body (no trailers).
  static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

  /// The response for a request the server refused before any handler saw it.
  static func failure(_ failure: HTTPParseError) -> HTTPResponse {
    .json(
      status: failure.status,
      .object([
        .init("code", .string("HTTP\(failure.status)")),
        .init("message", .string(failure.message)),
      ]))
  }
}

/// `Date` header text (an IMF-fixdate, `HTTPDate.format`), recomputed at most once a second.
final class DateHeader: Sendable {
  static let shared = DateHeader()
  let cache = Mutex<(Int, String)>((0, ""))

  func now() -> String {
    let seconds = time(nil)
    return cache.withLock { cached in
      if cached.0 == seconds { return cached.1 }
      let text = HTTPDate.format(seconds)
      cached = (seconds, text)
      return text
    }
  }
}
