import CLibUV
import Dispatch
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// The event loop: accepting, reading and parsing, the timeouts, and taking connections back
/// from the workers. Everything here runs on the loop thread.
extension HTTPServer {
  /// Seconds between sweeps for request, idle and linger timeouts.
  static let sweepInterval: UInt64 = 250

  func runLoop(listener: Int32, capacity: Int, ready: DispatchSemaphore) {
    let uvLoop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
    uv_loop_init(uvLoop)
    let context = Unmanaged.passUnretained(self).toOpaque()
    let listenerPoll = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
    uv_poll_init_socket(uvLoop, listenerPoll, listener)
    listenerPoll.pointee.data = context
    let wake = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
    uv_async_init(uvLoop, wake) { handle in
      guard let server = HTTPServer.owner(of: handle?.pointee.data) else { return }
      server.loop.withLock { server.takeBack(&$0) }
    }
    wake.pointee.data = context
    let sweep = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
    uv_timer_init(uvLoop, sweep)
    sweep.pointee.data = context
    loop.withLock { loop in
      loop.handle = uvLoop
      loop.listener = listener
      loop.listenerPoll = listenerPoll
      loop.wake = wake
      loop.sweep = sweep
      loop.capacity = capacity
    }
    uv_poll_start(listenerPoll, Int32(UV_READABLE.rawValue)) { handle, _, _ in
      guard let server = HTTPServer.owner(of: handle?.pointee.data) else { return }
      server.loop.withLock { server.acceptAll(&$0) }
    }
    uv_timer_start(
      sweep,
      { handle in
        guard let server = HTTPServer.owner(of: handle?.pointee.data) else { return }
        server.loop.withLock { server.sweep(&$0) }
      }, Self.sweepInterval, Self.sweepInterval)
    state.withLock { $0.wakeAddress = Int(bitPattern: wake) }
    ready.signal()
    // A stop before the loop ran is seen at once.
    if isStopped { state.withLock { Self.wake($0) } }
    uv_run(uvLoop, UV_RUN_DEFAULT)
    uv_loop_close(uvLoop)
    uvLoop.deallocate()
  }

  static func owner(of data: UnsafeMutableRawPointer?) -> HTTPServer? {
    data.map { Unmanaged<HTTPServer>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Accepts every connection waiting; at capacity, closes the one idle the longest to make
  /// room, else the one stalled the longest (for `slowHeadAge` at least: `makeRoom`), and
  /// answers 503 when there is neither.
  func acceptAll(_ loop: inout HTTPEventLoop) {
    guard !loop.closing else { return }
    while true {
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let client = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept(loop.listener, $0, &length)
        }
      }
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if errno == EMFILE || errno == ENFILE {
          // Out of descriptors: close the longest-idle connection so one is free.
          if makeRoom(&loop) { continue }
        }
        return
      }
      configure(client)
      if loop.connections.count >= loop.capacity {
        guard makeRoom(&loop) else {
          refuseBusy(client)
          continue
        }
      }
      open(client, remote: Self.addressText(address), &loop)
    }
  }

  /// Closes the connection idle the longest, else the one that kept the server's pace the least
  /// for `slowHeadAge` seconds (a head still arriving, a body below `minimumBodyRate`, an answer
  /// its client took nothing of: `HTTPEventLoop.stalled`; a request gets 408 first, sent only if
  /// the socket takes it at once); false when there is neither. One client cannot hold the
  /// table with connections that stall.
  func makeRoom(_ loop: inout HTTPEventLoop) -> Bool {
    if let idle = HTTPEventLoop.longestIdle(loop.connections) {
      closeConnection(idle, &loop)
      return true
    }
    let now = monotonicSeconds()
    guard
      let stalled = HTTPEventLoop.stalled(
        loop.connections, since: now - limits.slowHeadAge, now: now,
        minimumRate: limits.minimumBodyRate)
    else {
      return false
    }
    if !stalled.answering {
      let answer = HTTPConnection.lateRequestAnswer
      _ = answer.withUnsafeBytes {
        send(stalled.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
    }
    closeConnection(stalled.socket, &loop)
    return true
  }

  func configure(_ socket: Int32) {
    _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
    _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    var one: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// 503 and close: every connection is busy with a request.
  func refuseBusy(_ socket: Int32) {
    let busy = HTTPParseError(status: 503, message: "too many connections")
    let bytes = HTTPResponseWriter.serialize(
      HTTPResponseWriter.failure(busy), keepAlive: false, bodyless: false)
    _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    close(socket)
  }

  func open(_ socket: Int32, remote: String, _ loop: inout HTTPEventLoop) {
    guard let uvLoop = loop.handle else {
      close(socket)
      return
    }
    let reader = HTTPRequestReader(
      limits: limits.decoding, bufferLimit: limits.framing.maxBodyBytes, planner: planner)
    let connection = HTTPConnection(
      socket: socket, remoteAddress: remote, reader: reader, held: held)
    let poll = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
    uv_poll_init_socket(uvLoop, poll, socket)
    poll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    let now = monotonicSeconds()
    loop.connections[socket] = HTTPEventLoop.Entry(
      connection: connection, poll: poll, idleSince: now, lastActivity: now)
    watch(poll)
  }

  /// Watches a connection for its client's bytes, or (`writing`) for room to send the rest of
  /// an answer.
  func watch(_ poll: UnsafeMutablePointer<uv_poll_t>, writing: Bool = false) {
    // Writing, a client's half-close is not watched: it still reads its answer.
    let events =
      writing ? Int32(UV_WRITABLE.rawValue) : Int32(UV_READABLE.rawValue | UV_DISCONNECT.rawValue)
    uv_poll_start(poll, events) {
      handle, status, events in
      guard let handle, let server = HTTPServer.owner(of: handle.pointee.data) else { return }
      var socket: uv_os_fd_t = -1
      guard uv_fileno(snm_uv_handle(handle), &socket) == 0 else { return }
      server.loop.withLock { loop in
        if status < 0 {
          server.closeConnection(socket, &loop)
        } else if events & Int32(UV_WRITABLE.rawValue) != 0 {
          server.writable(socket, &loop)
        } else {
          server.readable(socket, &loop)
        }
      }
    }
  }

  /// Sends more of the answer a worker left (the client read some); once it is all sent, reads
  /// the client's next request (or closes).
  func writable(_ socket: Int32, _ loop: inout HTTPEventLoop) {
    guard var entry = loop.connections[socket], !entry.onWorker, entry.sendingSince != nil else {
      return
    }
    let (progress, keepAlive) = entry.connection.unsent.withLock {
      unsent -> (HTTPUnsentAnswer.Progress, Bool) in
      guard var rest = unsent else { return (.done, true) }
      let progress = rest.send(on: socket)
      unsent = progress == .blocked ? rest : nil
      return (progress, rest.keepAlive)
    }
    let now = monotonicSeconds()
    switch progress {
    case .blocked:
      entry.sendingSince = now
      loop.connections[socket] = entry
    case .failed:
      closeConnection(socket, &loop)
    case .done:
      guard keepAlive, !loop.closing else {
        closeConnection(socket, &loop)
        return
      }
      entry.sendingSince = nil
      entry.lastActivity = now
      entry.idleSince = nil
      entry.requestStart = now
      // What arrived while the answer went (a request pipelined behind it) is read now.
      let (step, ended, arrived) = entry.connection.reader.withLock {
        ($0.next(deferringPlans: true), $0.ended, $0.arrived)
      }
      entry.requestsEnded = ended
      entry.windowArrived = arrived
      loop.connections[socket] = entry
      watch(entry.poll)
      act(on: step, socket, &loop)
    }
  }

  /// Reads what arrived on `socket` and acts on it.
  func readable(_ socket: Int32, _ loop: inout HTTPEventLoop) {
    guard var entry = loop.connections[socket], !entry.onWorker else { return }
    let count = loop.scratch.withUnsafeMutableBytes {
      recv(socket, $0.baseAddress, $0.count, 0)
    }
    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
    guard count > 0 else {
      closeConnection(socket, &loop)
      return
    }
    if entry.lingerUntil != nil {
      entry.lingered += count
      loop.connections[socket] = entry
      if entry.lingered >= 1 << 20 { closeConnection(socket, &loop) }
      return
    }
    let now = monotonicSeconds()
    entry.idleSince = nil
    let received = count
    let (step, before) = loop.scratch.withUnsafeBufferPointer { buffer in
      entry.connection.reader.withLock { reader -> (HTTPRequestReader.Step, Int) in
        let before = reader.arrived
        reader.append(UnsafeBufferPointer(rebasing: buffer[0..<received]))
        return (reader.next(deferringPlans: true), before)
      }
    }
    if entry.requestStart == nil {
      entry.requestStart = now
      entry.windowArrived = before
    }
    loop.connections[socket] = entry
    act(on: step, socket, &loop)
  }

  /// What the loop does with the reader's step: hands a request to a worker, answers what needs
  /// no handler, or waits for more.
  func act(on step: HTTPRequestReader.Step, _ socket: Int32, _ loop: inout HTTPEventLoop) {
    guard var entry = loop.connections[socket] else { return }
    switch step {
    case .request, .streamed, .planning, .flushing:
      entry.onWorker = true
      entry.idleSince = nil
      loop.connections[socket] = entry
      uv_poll_stop(entry.poll)
      serveOnWorker(entry.connection, step)
    case .answered(let response):
      refuse(
        socket, HTTPResponseWriter.serialize(response, keepAlive: false, bodyless: false), &loop)
    case .failure(let failure):
      refuse(
        socket,
        HTTPResponseWriter.serialize(
          HTTPResponseWriter.failure(failure), keepAlive: false, bodyless: false), &loop)
    case .needMore:
      // A body streaming into a sink (an upload) is read here and held; a worker gives it to
      // the sink (which writes files) a few hundred KiB at a time (`.flushing`).
      let (continues, partial) = entry.connection.reader.withLock { reader in
        defer { reader.wantsContinue = false }
        return (reader.wantsContinue, reader.hasPartialRequest || reader.isStreaming)
      }
      if continues {
        let bytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      }
      if !partial {
        entry.idleSince = monotonicSeconds()
        entry.requestStart = nil
        loop.connections[socket] = entry
      }
    }
  }

  /// Sends an error answer (small: it fits the empty socket buffer) and closes lingering.
  func refuse(_ socket: Int32, _ bytes: [UInt8], _ loop: inout HTTPEventLoop) {
    guard var entry = loop.connections[socket] else { return }
    _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    shutdown(socket, Int32(SHUT_WR))
    entry.lingerUntil = monotonicSeconds() + 1
    entry.idleSince = nil
    loop.connections[socket] = entry
  }

  /// Takes back the connections workers are done with; once the server stopped, closes the
  /// listener and every connection not being answered, and ends the loop when none is left.
  func takeBack(_ loop: inout HTTPEventLoop) {
    let done = returned.withLock { list in
      defer { list.removeAll() }
      return list
    }
    let now = monotonicSeconds()
    for (connection, keep) in done {
      let socket = connection.socket
      guard var entry = loop.connections[socket], entry.connection === connection else {
        continue
      }
      guard keep, !loop.closing else {
        closeConnection(socket, &loop)
        continue
      }
      entry.onWorker = false
      entry.lastActivity = now
      if connection.unsent.withLock({ $0 != nil }) {
        // The client did not take the whole answer at once: the loop sends the rest.
        entry.idleSince = nil
        entry.requestStart = nil
        entry.sendingSince = now
        loop.connections[socket] = entry
        watch(entry.poll, writing: true)
        continue
      }
      let (partial, streaming, ended, arrived) = connection.reader.withLock {
        ($0.hasPartialRequest, $0.isStreaming, $0.ended, $0.arrived)
      }
      if streaming && ended == entry.requestsEnded && entry.requestStart != nil {
        // The same body streams on: its window runs on.
        entry.idleSince = nil
      } else {
        entry.idleSince = partial || streaming ? nil : now
        entry.requestStart = partial || streaming ? now : nil
        entry.windowArrived = arrived
      }
      entry.requestsEnded = ended
      loop.connections[socket] = entry
      watch(entry.poll)
    }
    if isStopped && !loop.closing {
      loop.closing = true
      if let poll = loop.listenerPoll {
        uv_close(snm_uv_handle(poll)) { handle in
          UnsafeMutableRawPointer(handle)?.deallocate()
        }
        loop.listenerPoll = nil
      }
      if loop.listener >= 0 {
        // A given socket is held by another process too (the supervisor): closing this copy
        // alone would leave it listening with nothing to accept what queues there.
        if given >= 0 { shutdown(loop.listener, Int32(SHUT_RD)) }
        close(loop.listener)
      }
      loop.listener = -1
      for (socket, entry) in loop.connections where !entry.onWorker {
        closeConnection(socket, &loop)
      }
    }
    if loop.closing && loop.connections.isEmpty { endLoop(&loop) }
  }

  /// Closes the loop's own handles; `uv_run` then returns.
  func endLoop(_ loop: inout HTTPEventLoop) {
    state.withLock { $0.wakeAddress = 0 }
    for handle in [
      loop.wake.map { UnsafeMutableRawPointer($0) }, loop.sweep.map { UnsafeMutableRawPointer($0) },
    ] {
      guard let handle else { continue }
      uv_close(snm_uv_handle(handle)) { closed in UnsafeMutableRawPointer(closed)?.deallocate() }
    }
    loop.wake = nil
    loop.sweep = nil
  }

  /// Ends a connection the loop owns (or one a worker gave back): its handle, then its socket.
  func closeConnection(_ socket: Int32, _ loop: inout HTTPEventLoop) {
    guard let entry = loop.connections.removeValue(forKey: socket) else { return }
    // Closing stops the poll (libuv drops the descriptor from epoll at once), so the socket
    // may be closed right after; the handle's memory goes in its close callback.
    uv_close(snm_uv_handle(entry.poll)) { handle in UnsafeMutableRawPointer(handle)?.deallocate() }
    // An upgraded socket (a WebSocket) goes to whoever takes it over, who closes it.
    if let upgrade = entry.connection.upgraded.withLock({ $0 }) {
      upgrade.takeOver(socket)
    } else {
      close(socket)
    }
    if loop.closing && loop.connections.isEmpty { endLoop(&loop) }
  }

  /// Enforces the request timeout (408), the idle timeout and the end of lingering closes. A
  /// streamed body may take longer than the request timeout while each of its windows (of that
  /// many seconds) brings `minimumBodyRate` bytes a second; one that does not gets 408.
  func sweep(_ loop: inout HTTPEventLoop) {
    let now = monotonicSeconds()
    var late: [Int32] = []
    var ended: [Int32] = []
    var renewed: [(Int32, Int)] = []
    for (socket, entry) in loop.connections where !entry.onWorker {
      if let until = entry.lingerUntil {
        if now >= until { ended.append(socket) }
      } else if let since = entry.sendingSince {
        // A client that stopped reading its answer.
        if now - since >= limits.writeTimeout { ended.append(socket) }
      } else if let start = entry.requestStart, entry.idleSince == nil {
        guard now - start >= limits.requestTimeout else { continue }
        let (streaming, arrived) = entry.connection.reader.withLock { ($0.isStreaming, $0.arrived) }
        let least = limits.minimumBodyRate * limits.requestTimeout
        if streaming && Double(arrived - entry.windowArrived) >= least {
          renewed.append((socket, arrived))
        } else {
          late.append(socket)
        }
      } else if now - entry.lastActivity >= limits.idleTimeout {
        ended.append(socket)
      }
    }
    for (socket, arrived) in renewed {
      loop.connections[socket]?.requestStart = now
      loop.connections[socket]?.windowArrived = arrived
    }
    for socket in ended { closeConnection(socket, &loop) }
    for socket in late { refuse(socket, HTTPConnection.lateRequestAnswer, &loop) }
  }
}
