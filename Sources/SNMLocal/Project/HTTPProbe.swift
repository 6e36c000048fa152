import CLibUV
#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP client for readiness checks: one GET on 127.0.0.1, returns the status code.
enum HTTPProbe {
  static func status(port: Int, path: String, apiKey: String) -> Int? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return nil }
    let request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(apiKey)\r\nConnection: close\r\n\r\n"
    let sent = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    guard sent > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 64, 0) }
    guard count >= 12 else { return nil }
    let line = String(decoding: buffer[0..<count], as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    return Int(parts[1])
  }
}
