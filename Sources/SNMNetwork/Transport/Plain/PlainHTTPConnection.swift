import Foundation
import Synchronization

/// One kept-alive HTTP/1.1 connection over a TCP socket, for `http://` URLs.
///
/// ```swift
/// let connection = try PlainHTTPConnection.open(host: "127.0.0.1", port: 54321, deadline: d)
/// let answer = try connection.exchange(bytes, isHead: false, maximumBodyBytes: m, deadline: d)
/// ```
/// Blocking calls, made off the Swift concurrency pool by ``PlainHTTPClient``. `cancel()` may be
/// called from any thread: it shuts the socket down, which wakes a blocked read. Throws
/// ``PlainHTTPFailure``.
final class PlainHTTPConnection: Sendable {
  private let fd: Int32
  private let state = Mutex(State())

  private struct State {
    var cancelled = false
    var closed = false
  }

  private init(fd: Int32) {
    self.fd = fd
  }

  deinit {
    close()
  }

  /// Connects to `host:port` (a name, an IPv4 or an IPv6 address) before `deadline`.
  static func open(host: String, port: Int, deadline: ContinuousClock.Instant)
    throws(PlainHTTPFailure) -> PlainHTTPConnection
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw .unreachable("host not found")
    }
    defer { freeaddrinfo(list) }
    var cause = "connection refused"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      entry = info.pointee.ai_next
      let fd = socket(
        info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
        info.pointee.ai_protocol)
      if fd < 0 { continue }
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      // Non-blocking, so that connecting to an address that never answers ends at `deadline`.
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      var failure =
        Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 ? 0 : errno
      if failure == EINPROGRESS {
        let connection = PlainHTTPConnection(fd: fd)
        do {
          try connection.wait(for: Int16(POLLOUT), deadline: deadline)
        } catch {
          if error == .timedOut { throw .timedOut }
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        failure = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 ? code : errno
        if failure == 0 { return connection }
        if failure == ENETUNREACH || failure == EHOSTUNREACH { cause = "network is unreachable" }
        continue  // the connection closes the socket
      }
      if failure == 0 { return PlainHTTPConnection(fd: fd) }
      if failure == ENETUNREACH || failure == EHOSTUNREACH { cause = "network is unreachable" }
      Glibc.close(fd)
      if ContinuousClock.now >= deadline { throw .timedOut }
    }
    throw .unreachable(cause)
  }

  /// Wakes a blocked read or write; the exchange then throws `.cancelled`.
  func cancel() {
    let open = state.withLock { state in
      state.cancelled = true
      return !state.closed
    }
    if open { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  func close() {
    let wasOpen = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    if wasOpen { Glibc.close(fd) }
  }

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Sends `request` and reads one answer; passing `deadline` (however the bytes trickle) is a
  /// timeout.
  ///
  /// A `file` body follows the head, read from disk a piece at a time. A server that answers
  /// before the whole body is sent (an upload it refuses) and closes: its answer is still read.
  func exchange(
    _ request: [UInt8], file: RequestBodyFile? = nil, isHead: Bool, maximumBodyBytes: Int,
    saveTo: String? = nil, arriving: ArrivingElements? = nil, holdsSecrets: Bool = false,
    deadline: ContinuousClock.Instant
  ) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    try send(request, deadline: deadline)
    var refusedEarly = false
    if let file {
      do {
        try send(file, deadline: deadline)
      } catch {
        guard case .closedEarly = error else { throw error }
        refusedEarly = true
      }
    }
    var reader = PlainHTTPReader(
      buffered: [], maximumBodyBytes: maximumBodyBytes, saveTo: saveTo, arriving: arriving)
    reader.holdsSecrets = holdsSecrets
    // The reads an answer holding a secret came in: zeroed, however the reading ended.
    defer { if holdsSecrets { reader.wipe() } }
    var answer = try reader.readAnswer(isHead: isHead) { room, after throws(PlainHTTPFailure) in
      try self.receive(into: room, then: after, deadline: deadline)
    }
    // Bytes past the answer's end were asked for by no request (one is sent at a time): they go
    // with the connection, never taken for the next answer (curl: "excess found in a read").
    if refusedEarly || !reader.unread.isEmpty { answer.keepAlive = false }
    return answer
  }

  /// Whether the server wrote while the connection sat idle between requests (bytes no request
  /// asked for, or the connection's end): it is not used again, as curl uses no such one.
  var spokeWhileIdle: Bool {
    var idle = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&idle, 1, 0) != 0
  }

  /// Sends `file`'s bytes with `sendfile` (from the page cache to the socket, never through this
  /// process's memory).
  private func send(_ file: RequestBodyFile, deadline: ContinuousClock.Instant)
    throws(PlainHTTPFailure)
  {
    var offset = off_t(0)
    while Int64(offset) < file.length {
      try wait(for: Int16(POLLOUT), deadline: deadline)
      let left = Int(min(file.length - Int64(offset), 1 << 30))
      let sent = sendfile(fd, file.fd, &offset, left)
      if sent < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        if isCancelled { throw .cancelled }
        if errno == EPIPE || errno == ECONNRESET { throw .closedEarly(receivedNothing: false) }
        throw .localFile(TransportFileError(path: file.path, call: "read"))
      }
      if sent == 0 {
        throw .localFile(
          TransportFileError(path: file.path, call: "read", reason: "the file got shorter"))
      }
    }
  }

  /// Sends `bytes`; `.notSent` when the connection failed before the kernel took one of them.
  func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant)
    throws(PlainHTTPFailure)
  {
    // A request fits the socket's buffer: sent at once, with no `poll` first unless it is full.
    var offset = 0
    while offset < bytes.count {
      if isCancelled { throw .cancelled }
      if ContinuousClock.now >= deadline { throw .timedOut }
      let sent = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return Glibc.send(
          fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if sent < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK {
          try wait(for: Int16(POLLOUT), deadline: deadline)
          continue
        }
        if errno == EINTR { continue }
        if isCancelled { throw .cancelled }
        // Not a byte of `bytes` taken: none of it left this machine (the kernel's refusal, not a
        // guess: any byte it took may have reached the server and been read).
        throw offset == 0 ? .notSent : .closedEarly(receivedNothing: true)
      }
      offset += sent
    }
  }

  /// The next bytes from the socket; empty at the end of the stream.
  func receive(deadline: ContinuousClock.Instant) throws(PlainHTTPFailure)
    -> [UInt8]
  {
    try [UInt8](reading: 64 * 1024) { room throws(PlainHTTPFailure) in
      try receive(
        into: room, then: UnsafeMutableRawBufferPointer(start: nil, count: 0),
        deadline: deadline)
    }
  }

  /// Reads the socket's next bytes into `room`, and past its end into `after` (`readv`: a body's
  /// bytes where they are kept, the framing that follows them for the decoder); how many came, 0
  /// at the end of the stream.
  func receive(
    into room: UnsafeMutableRawBufferPointer, then after: UnsafeMutableRawBufferPointer,
    deadline: ContinuousClock.Instant
  ) throws(PlainHTTPFailure) -> Int {
    var vectors = (
      iovec(iov_base: room.baseAddress, iov_len: room.count),
      iovec(iov_base: after.baseAddress, iov_len: after.count)
    )
    let used = Int32(after.count > 0 ? 2 : 1)
    while true {
      try wait(for: Int16(POLLIN), deadline: deadline)
      let count = withUnsafeMutablePointer(to: &vectors) { pair in
        pair.withMemoryRebound(to: iovec.self, capacity: 2) { readv(fd, $0, used) }
      }
      if isCancelled { throw .cancelled }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return 0
      }
      return count
    }
  }

  private func wait(for events: Int16, deadline: ContinuousClock.Instant)
    throws(PlainHTTPFailure)
  {
    while true {
      if isCancelled { throw .cancelled }
      let left = ContinuousClock.now.duration(to: deadline)
      let wait = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
      if wait <= 0 { throw .timedOut }
      var poller = pollfd(fd: fd, events: events, revents: 0)
      let ready = poll(&poller, 1, Int32(min(wait * 1000, 86_400_000).rounded(.up)))
      if ready > 0 { return }
      if ready < 0 && errno == EINTR { continue }
      if isCancelled { throw .cancelled }
      if ready == 0 { throw .timedOut }
      throw .closedEarly(receivedNothing: false)
    }
  }
}

extension [UInt8] {
  /// An array of what `read` put in a room of `count` bytes (left uninitialised: a read fills it,
  /// so 64 KiB are not zeroed for every answer).
  init(reading count: Int, _ read: (UnsafeMutableRawBufferPointer) throws(PlainHTTPFailure) -> Int)
    throws(PlainHTTPFailure)
  {
    var failure: PlainHTTPFailure?
    self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(PlainHTTPFailure) {
        let got = try read(UnsafeMutableRawBufferPointer(buffer))
        initialized = Swift.max(0, Swift.min(got, count))
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
  }
}
