import CLibUV

#if canImport(Glibc)
  import Glibc
#endif

extension HTTPServer {
  /// A listening TCP socket on 127.0.0.1:`port`, closed on exec. Throws `HTTPServerError`
  /// (`bind` with errno 98 when the port is in use).
  package static func listen(port: Int) throws(HTTPServerError) -> Int32 {
    let fd = LoopbackSocket.make()
    guard fd >= 0 else { throw HTTPServerError(operation: "socket", code: errno, port: port) }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = LoopbackSocket.withAddress(port: port) { bind(fd, $0, $1) }
    guard bound == 0 else {
      let code = errno
      close(fd)
      throw HTTPServerError(operation: "bind", code: code, port: port)
    }
    guard Glibc.listen(fd, 1024) == 0 else {
      let code = errno
      close(fd)
      throw HTTPServerError(operation: "listen", code: code, port: port)
    }
    return fd
  }

  /// The port `fd` listens on when it is a TCP socket listening on 127.0.0.1; nil otherwise.
  package static func listeningPort(of fd: Int32) -> Int? {
    var listening: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0, listening == 1
    else { return nil }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0, address.sin_family == sa_family_t(AF_INET),
      UInt32(bigEndian: address.sin_addr.s_addr) == 0x7F00_0001
    else { return nil }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func boundPort(of fd: Int32) -> Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func addressText(_ address: sockaddr_in) -> String {
    let raw = UInt32(bigEndian: address.sin_addr.s_addr)
    return "\(raw >> 24).\(raw >> 16 & 255).\(raw >> 8 & 255).\(raw & 255)"
  }
}
