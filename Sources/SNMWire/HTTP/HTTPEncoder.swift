/// Writes HTTP/1.1 heads: a request line or a status line, the fields, the empty line. The
/// framing fields (`Content-Length`, `Connection`) are the caller's to choose; a field value
/// can never split the head (CR and LF in it become spaces).
///
/// ```swift
/// var bytes = HTTPEncoder.head(of: HTTPRequestHead(method: "GET", target: "/rest/v1/t",
///   headers: ["Host": "127.0.0.1:54321"]))
/// bytes += HTTPEncoder.head(of: HTTPResponseHead(status: 204))
/// ```
/// The head is written straight into bytes (no intermediate text): a server writes one per answer.
public enum HTTPEncoder {
  /// `METHOD TARGET HTTP/1.1`, the fields, the empty line.
  public static func head(of request: HTTPRequestHead) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    appendRequestLine(
      method: request.method, target: request.target, minorVersion: request.minorVersion,
      to: &bytes)
    appendFields(request.headers, to: &bytes)
    return bytes
  }

  /// `METHOD TARGET HTTP/1.x` and CRLF, without the fields: a client that writes its fields
  /// after it (with `appendField`) and ends the head with `appendEnd`.
  public static func appendRequestLine(
    method: String, target: String, minorVersion: Int = 1, to bytes: inout [UInt8]
  ) {
    append(method, to: &bytes)
    bytes.append(UInt8(ascii: " "))
    append(target, to: &bytes)
    bytes.append(contentsOf: " HTTP/1.".utf8)
    bytes.append(contentsOf: String(minorVersion).utf8)
    bytes.append(contentsOf: crlf)
  }

  /// `text`'s UTF-8, copied from its contiguous storage (the view's generic append retains and
  /// copies through a slower path on every call).
  static func append(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// `HTTP/1.1 STATUS REASON`, the fields, the empty line.
  public static func head(of response: HTTPResponseHead) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    appendStatusLine(of: response, to: &bytes)
    appendFields(response.headers, to: &bytes)
    return bytes
  }

  /// `HTTP/1.1 STATUS REASON` and CRLF, without the fields: a server that writes its own fields
  /// after it (with `appendField`) and ends the head with `appendEnd`.
  public static func appendStatusLine(of response: HTTPResponseHead, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: "HTTP/1.".utf8)
    bytes.append(contentsOf: String(response.minorVersion).utf8)
    bytes.append(UInt8(ascii: " "))
    bytes.append(contentsOf: String(response.status).utf8)
    bytes.append(UInt8(ascii: " "))
    appendSanitized(response.reason, to: &bytes)
    bytes.append(contentsOf: crlf)
  }

  /// `name: value` and CRLF, CR and LF in either made spaces.
  public static func appendField(name: String, value: String, to bytes: inout [UInt8]) {
    appendSanitized(name, to: &bytes)
    bytes.append(contentsOf: ": ".utf8)
    appendSanitized(value, to: &bytes)
    bytes.append(contentsOf: crlf)
  }

  /// `name: value` as one line without its CRLF, CR and LF in either made spaces, as
  /// ``appendField(name:value:to:)`` writes it: for libcurl, which takes header lines as text and
  /// sends what they hold (a key read with its newline, `KEY\r\nX-Other: 1`, added a field over
  /// HTTP/1.1 and made nghttp2 reset the stream over HTTP/2).
  public static func fieldLine(name: String, value: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count + value.utf8.count + 2)
    appendSanitized(name, to: &bytes)
    bytes.append(contentsOf: ": ".utf8)
    appendSanitized(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The empty line that ends a head.
  public static func appendEnd(to bytes: inout [UInt8]) {
    bytes.append(contentsOf: crlf)
  }

  static func appendFields(_ headers: HTTPHeaders, to bytes: inout [UInt8]) {
    for field in headers {
      appendField(name: field.name, value: field.value, to: &bytes)
    }
    appendEnd(to: &bytes)
  }

  static let crlf: [UInt8] = [0x0D, 0x0A]

  /// `value` with CR and LF replaced by spaces, so a field can never end the head or add one.
  public static func sanitized(_ value: String) -> String {
    var bytes: [UInt8] = []
    appendSanitized(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `text`'s UTF-8 with each CR, LF or CRLF (one character) made one space.
  static func appendSanitized(_ text: String, to bytes: inout [UInt8]) {
    let start = bytes.count
    append(text, to: &bytes)
    let clean = bytes.withUnsafeBufferPointer { all in
      // Branch-free over the bytes (a field value is often a 200-byte token).
      var found: UInt8 = 0
      for byte in UnsafeBufferPointer(rebasing: all[start...]) {
        found |= (byte == 0x0D ? 1 : 0) | (byte == 0x0A ? 1 : 0)
      }
      return found == 0
    }
    guard !clean else { return }
    var read = start
    var write = start
    while read < bytes.count {
      let byte = bytes[read]
      read += 1
      if byte == 0x0D || byte == 0x0A {
        if byte == 0x0D, read < bytes.count, bytes[read] == 0x0A { read += 1 }
        bytes[write] = UInt8(ascii: " ")
      } else {
        bytes[write] = byte
      }
      write += 1
    }
    bytes.removeSubrange(write...)
  }
}
