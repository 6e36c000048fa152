import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A port on 127.0.0.1 that waits for one browser redirect (`login provider`, as `gh auth login`
/// waits for its own): after the provider's sign-in the project sends the browser to
/// `http://127.0.0.1:PORT/callback?code=...`; the listener answers with a short page saying to
/// go back to snm and hands over the query. It listens on the loopback address only.
///
/// ```swift
/// let loopback = try LoopbackRedirect()       // a free port on 127.0.0.1
/// loopback.url                                 // http://127.0.0.1:PORT/callback
/// let query = try await loopback.wait()       // ["code": "..."]; cancelling the task stops it
/// ```
final class LoopbackRedirect: Sendable {
  let port: Int
  private let listener: Int32
  /// Written to when the waiting task is cancelled, to wake the thread in `poll`.
  private let wakeReader: Int32
  private let wakeWriter: Int32
  private let closed = Mutex(false)

  init() throws(LoopbackRedirectError) {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .cannotListen(Self.lastError()) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(fd, socketAddress, length) == 0 && listen(fd, 8) == 0
          && getsockname(fd, socketAddress, &length) == 0
      }
    }
    var pipeEnds: [Int32] = [-1, -1]
    guard bound, pipe(&pipeEnds) == 0 else {
      let reason = Self.lastError()
      Glibc.close(fd)
      throw .cannotListen(reason)
    }
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    listener = fd
    wakeReader = pipeEnds[0]
    wakeWriter = pipeEnds[1]
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close() }

  /// Where the project is to send the browser back.
  var url: String { "http://127.0.0.1:\(port)/callback" }

  /// Waits for `GET /callback?...` and returns its query (percent-decoded, `+` as a space).
  /// Other requests (a browser's `/favicon.ico`) are answered 404 and the wait goes on. With
  /// `paste` (the terminal), a line typed there instead ends the wait too: the address the
  /// browser was sent to, or its code (``PastedRedirect``), for a browser that cannot reach this
  /// machine's port.
  func wait(paste: Int32? = nil) async throws -> [String: String] {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { [self] in
          continuation.resume(
            with: Result { () throws(LoopbackRedirectError) in try accept(paste: paste) })
        }
        thread.start()
      }
    } onCancel: {
      wake()
    }
  }

  /// Stops listening (and a `wait` in progress).
  func close() {
    let first = closed.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    wake()
    Glibc.close(listener)
    Glibc.close(wakeWriter)
    Glibc.close(wakeReader)
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = Glibc.write(wakeWriter, &byte, 1)
  }

  private func accept(paste: Int32?) throws(LoopbackRedirectError) -> [String: String] {
    var pasted = PastedRedirect(fd: paste)
    while true {
      var polls = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0),
        pollfd(fd: pasted.fd ?? -1, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&polls, 3, -1) >= 0 else {
        if errno == EINTR { continue }
        throw .failed(Self.lastError())
      }
      if polls[1].revents != 0 { throw .stopped }
      if polls[2].revents != 0, let query = pasted.readLine() { return query }
      guard polls[0].revents != 0 else { continue }
      let client = Glibc.accept(listener, nil, nil)
      guard client >= 0 else { continue }
      defer { Glibc.close(client) }
      // A browser sends its request at once; one that sends nothing is dropped after 10 s.
      var patience = timeval(tv_sec: 10, tv_usec: 0)
      setsockopt(
        client, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
      guard let target = Self.requestTarget(client) else { continue }
      let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts[0] == "/callback" else {
        Self.respond(client, status: "404 Not Found", text: "not found")
        continue
      }
      let query = parts.count > 1 ? Self.decodeQuery(String(parts[1])) : [:]
      let signedIn = !(query["code"] ?? "").isEmpty
      Self.respond(
        client, status: "200 OK",
        text: signedIn
          ? "snm: signed in. You can close this tab and go back to snm."
          : "snm: the sign-in did not finish; snm says why.")
      return query
    }
  }

  /// The request line's target (`/callback?code=...`) of a GET, or nil.
  static func requestTarget(_ client: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while received.count < 16_384 {
      let count = Glibc.read(client, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[0..<count]
      if received.contains(UInt8(ascii: "\n")) { break }
    }
    guard let end = received.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = String(decoding: received[..<end], as: UTF8.self)
    let words = line.split(separator: " ")
    guard words.count >= 2, words[0] == "GET" else { return nil }
    return String(words[1])
  }

  /// `a=1&b=x+y` as a dictionary (form encoding, as GoTrue writes its redirects).
  static func decodeQuery(_ query: String) -> [String: String] {
    var items: [String: String] = [:]
    for pair in query.split(separator: "&") {
      let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
      }
      items[decoded(halves[0])] = halves.count > 1 ? decoded(halves[1]) : ""
    }
    return items
  }

  static func respond(_ client: Int32, status: String, text: String) {
    let body = Array("<!doctype html><title>snm</title><p>\(text)</p>\n".utf8)
    let head =
      "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + body
    _ = bytes.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) }
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Why the loopback redirect did not come.
enum LoopbackRedirectError: Error, Sendable, Equatable, CustomStringConvertible {
  case cannotListen(String)
  case failed(String)
  case stopped

  var description: String {
    switch self {
    case .cannotListen(let reason):
      "cannot listen on 127.0.0.1 for the browser's redirect: \(reason)"
    case .failed(let reason): "waiting for the browser's redirect failed: \(reason)"
    case .stopped: "stopped waiting for the browser's redirect"
    }
  }
}
