import CLibUV
import SNMGateway

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP client for readiness checks and `snm local inbox`: one GET on 127.0.0.1.
enum HTTPProbe {
  /// The status code of `GET path`, or nil when nothing answers.
  static func status(port: Int, path: String, apiKey: String) -> Int? {
    exchange(port: port, path: path, apiKey: apiKey, whole: false)?.status
  }

  /// The status and body of `GET path` (read until the server closes, at most 64 MiB).
  static func get(port: Int, path: String, apiKey: String) -> (status: Int, body: [UInt8])? {
    exchange(port: port, path: path, apiKey: apiKey, whole: true)
  }

  static func exchange(port: Int, path: String, apiKey: String, whole: Bool) -> (
    status: Int, body: [UInt8]
  )? {
    guard let fd = LoopbackSocket.connect(port: port, readTimeout: 2) else { return nil }
    defer { close(fd) }
    let request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(apiKey)\r\nConnection: close\r\n\r\n"
    let sent = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    guard sent > 0 else { return nil }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: whole ? 65536 : 64)
    repeat {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      received += buffer[0..<count]
    } while whole && received.count < 64 << 20
    guard received.count >= 12 else { return nil }
    let head = received.prefix(64)
    let parts = String(decoding: head, as: UTF8.self).split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    let separator: [UInt8] = [13, 10, 13, 10]
    var body: [UInt8] = []
    if whole, received.count >= 4 {
      for index in 0...(received.count - 4) where Array(received[index..<index + 4]) == separator {
        body = Array(received[(index + 4)...])
        let headText = String(decoding: received[0..<index], as: UTF8.self).lowercased()
        if headText.contains("transfer-encoding: chunked") { body = dechunked(body) }
        break
      }
    }
    return (status, body)
  }

  /// The payload of a chunked body (sizes in hex, each chunk followed by CRLF).
  static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
      var end = index
      while end + 1 < bytes.count && !(bytes[end] == 13 && bytes[end + 1] == 10) { end += 1 }
      let line = String(decoding: bytes[index..<end], as: UTF8.self)
      guard let size = Int(line.split(separator: ";").first ?? "", radix: 16), size > 0,
        end + 2 + size <= bytes.count
      else { break }
      output += bytes[(end + 2)..<(end + 2 + size)]
      index = end + 2 + size + 2
    }
    return output
  }
}
