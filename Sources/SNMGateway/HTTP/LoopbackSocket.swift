import CLibUV

#if canImport(Glibc)
  import Glibc
#endif

/// TCP sockets on 127.0.0.1, the one address the local project serves on and calls its own
/// processes at.
///
/// ```swift
/// guard let fd = LoopbackSocket.connect(port: 54321, readTimeout: 2) else { return nil }
/// defer { close(fd) }
/// ```
package enum LoopbackSocket {
  /// A new TCP socket, closed on exec; -1 when none could be made (`errno` says why).
  package static func make() -> Int32 {
    socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  }

  /// Calls `body` (`bind` or `connect`) with the address 127.0.0.1:`port`; returns its result.
  package static func withAddress(
    port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// A socket connected to 127.0.0.1:`port`, its reads timing out after `readTimeout` seconds
  /// when one is given, sending small writes at once when `noDelay`; nil when the connection
  /// is refused (nothing listens) or no socket could be made.
  package static func connect(port: Int, readTimeout: Int? = nil, noDelay: Bool = false)
    -> Int32?
  {
    let fd = make()
    guard fd >= 0 else { return nil }
    if let readTimeout {
      var limit = timeval(tv_sec: readTimeout, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
    if noDelay {
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
    guard withAddress(port: port, { Glibc.connect(fd, $0, $1) }) == 0 else {
      close(fd)
      return nil
    }
    return fd
  }
}
