@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

/// How big the backend behind a connection has grown: a backend keeps what it allocated
/// (cached plans, catalog caches, a big sort's memory) after the statement ends, so `PGPool`
/// measures it now and then and closes one past its limit instead of reusing it.
extension PGConnection {
  /// Records one use; a new prepared plan or a statement that ran long may have grown the
  /// backend (`PGPool` then measures it).
  func noteUse(grew: Bool, seconds: Double) {
    usage.withLock { usage in
      usage.uses += 1
      if grew || seconds > 0.1 { usage.mayHaveGrown = true }
    }
  }

  /// Whether the pool should measure the backend now: after something that may have grown it,
  /// else every 256th use. Resets the count when it says yes.
  func memoryCheckIsDue() -> Bool {
    usage.withLock { usage in
      guard usage.mayHaveGrown || usage.uses >= 256 else { return false }
      usage = Usage()
      return true
    }
  }

  /// The backend's private memory in bytes (`RssAnon` of /proc/<pid>/status: its own heap, not
  /// the shared buffers it touched), nil when it cannot be read.
  public var backendMemory: Int? {
    let pid = handle.withLock { connection in connection.map { PQbackendPID($0) } ?? 0 }
    guard pid > 0 else { return nil }
    return Self.anonymousResidentBytes(pid: pid)
  }

  /// `RssAnon` of /proc/<pid>/status in bytes, nil when the file cannot be read (another
  /// user's process under `hidepid`, or gone).
  static func anonymousResidentBytes(pid: Int32) -> Int? {
    let fd = Glibc.open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return residentAnonymousBytes(statusFile: buffer[0..<count])
  }

  /// The `RssAnon:` line of a /proc/<pid>/status file's bytes (`RssAnon:\t    1234 kB`) in bytes,
  /// nil without one. Scans bytes: the pool measures a backend after every slow statement, and
  /// splitting the file as Characters cost about 636k instructions a measure.
  static func residentAnonymousBytes(statusFile bytes: ArraySlice<UInt8>) -> Int? {
    let key = Array("RssAnon:".utf8)
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
      if bytes[start..<end].starts(with: key) {
        var kilobytes = 0
        var digits = 0
        for byte in bytes[(start + key.count)..<end] {
          if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            let (shifted, over) = kilobytes.multipliedReportingOverflow(by: 10)
            guard !over, shifted <= Int.max / 1024 - 9 else { return nil }
            kilobytes = shifted + Int(byte - UInt8(ascii: "0"))
            digits += 1
          } else if digits > 0 {
            break
          }
        }
        return digits > 0 ? kilobytes * 1024 : nil
      }
      start = end + 1
    }
    return nil
  }
}
