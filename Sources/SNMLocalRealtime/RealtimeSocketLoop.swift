import CEpoll
import Foundation
import SNMGateway
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The WebSocket connections Realtime took over from the HTTP server, read on one thread of
/// their own (epoll): frames are decoded there and each socket's Phoenix messages are handled in
/// order on that socket's queue, so a join that asks the database never holds up the others.
/// An idle socket costs a descriptor and its buffers, never a thread. A socket that sends
/// nothing (not even a heartbeat) for `idleTimeout` seconds is closed, as Phoenix does after 60 s.
final class RealtimeSocketLoop: Sendable {
  let poller: Int32
  let waker: Int32
  let idleTimeout: Double
  /// The most every socket's outbox may hold together (`RealtimeLimits.unsentBytes`).
  let unsentLimit: Int
  /// What every socket's outbox holds now.
  let unsent = Atomic<Int>(0)
  let sockets = Mutex<[Int32: RealtimeSocket]>([:])
  let stopped = Atomic<Bool>(false)
  /// Called on the loop thread with each whole message of a socket (text or binary).
  let onMessage: @Sendable (RealtimeSocket, WebSocketMessage) -> Void
  /// Called once a socket is gone (closed by either side).
  let onClose: @Sendable (RealtimeSocket) -> Void

  init(
    idleTimeout: Double = 60,
    unsentLimit: Int = RealtimeLimits().unsentBytes,
    onMessage: @escaping @Sendable (RealtimeSocket, WebSocketMessage) -> Void,
    onClose: @escaping @Sendable (RealtimeSocket) -> Void
  ) {
    poller = epoll_create1(Int32(EPOLL_CLOEXEC))
    waker = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    self.idleTimeout = idleTimeout
    self.unsentLimit = unsentLimit
    self.onMessage = onMessage
    self.onClose = onClose
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.fd = waker
    epoll_ctl(poller, Int32(EPOLL_CTL_ADD), waker, &event)
    let thread = Thread { [self] in run() }
    thread.name = "snm-realtime"
    thread.start()
  }

  /// Serves `descriptor` (a socket the HTTP server upgraded) as `socket`.
  func adopt(_ socket: RealtimeSocket) {
    sockets.withLock { $0[socket.descriptor] = socket }
    var event = epoll_event()
    event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    event.data.fd = socket.descriptor
    epoll_ctl(poller, Int32(EPOLL_CTL_ADD), socket.descriptor, &event)
  }

  /// Watches `socket` for room to write (the rest of what it could not send at once) or, once
  /// sent, for reading only.
  func watch(_ socket: RealtimeSocket, writing: Bool) {
    var event = epoll_event()
    event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (writing ? EPOLLOUT.rawValue : 0)
    event.data.fd = socket.descriptor
    epoll_ctl(poller, Int32(EPOLL_CTL_MOD), socket.descriptor, &event)
  }

  /// Wakes the loop so it finishes sockets marked closing.
  func wake() {
    var one: UInt64 = 1
    _ = Glibc.write(waker, &one, 8)
  }

  /// Signalled by the loop's thread once it has closed every socket at stop.
  private let drained = DispatchSemaphore(value: 0)

  /// Closes every socket (going away) and ends the thread; returns once the close frames are
  /// written (at most `wait` seconds later), so a process that exits next does not cut them off.
  func stop(wait: Double = 2) {
    stopped.store(true, ordering: .releasing)
    wake()
    _ = drained.wait(timeout: .now() + wait)
  }

  private func run() {
    var events = [epoll_event](repeating: epoll_event(), count: 256)
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var lastSweep = monotonicSeconds()
    while true {
      let count = epoll_wait(poller, &events, Int32(events.count), 1_000)
      if stopped.load(ordering: .acquiring) {
        for socket in sockets.withLock({ Array($0.values) }) {
          socket.sendClose(.goingAway, reason: "server shutting down")
          // The close frame, then the end of what this side sends; what the client sent is read
          // away first, else closing with it unread would reset the connection and the client
          // could lose the frame.
          shutdown(socket.descriptor, Int32(SHUT_WR))
          Self.discardInput(socket.descriptor, &scratch)
          finish(socket)
        }
        drained.signal()
        return
      }
      for index in 0..<max(0, Int(count)) {
        let descriptor = events[index].data.fd
        if descriptor == waker {
          var drained: UInt64 = 0
          _ = Glibc.read(waker, &drained, 8)
          continue
        }
        guard let socket = sockets.withLock({ $0[descriptor] }) else { continue }
        let flags = events[index].events
        if flags & EPOLLOUT.rawValue != 0, socket.flush() { watch(socket, writing: false) }
        if flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue)
          != 0
        {
          read(socket, &scratch)
        }
      }
      for socket in sockets.withLock({ $0.values.filter(\.isClosing) }) { finish(socket) }
      let now = monotonicSeconds()
      if now - lastSweep >= 1 {
        lastSweep = now
        for socket in sockets.withLock({ Array($0.values) })
        where now - socket.lastHeard > idleTimeout {
          socket.sendClose(.goingAway, reason: "no heartbeat for \(Int(idleTimeout)) s")
          finish(socket)
        }
      }
    }
  }

  /// Reads what arrived and hands each whole message on; fails the socket on a protocol error.
  private func read(_ socket: RealtimeSocket, _ scratch: inout [UInt8]) {
    while true {
      let count = scratch.withUnsafeMutableBytes {
        recv(socket.descriptor, $0.baseAddress, $0.count, 0)
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
      guard count > 0 else {
        finish(socket)
        return
      }
      switch socket.receive(scratch[0..<count]) {
      case .messages(let messages):
        for message in messages {
          switch message {
          case .ping(let data): socket.sendFrame(.pong(data))
          case .pong: break
          case .close(let code, _):
            // Echo the code (none for none), then close (RFC 6455 §5.5.1).
            socket.sendFrame(.close(code: code ?? .normal, reason: ""))
            finish(socket)
            return
          case .text, .binary: onMessage(socket, message)
          }
        }
      case .failed(let error):
        socket.sendClose(error.closeCode, reason: error.message)
        finish(socket)
        return
      }
      if count < scratch.count { return }
    }
  }

  /// Reads and drops what is waiting on `descriptor` (non-blocking: up to what has arrived).
  private static func discardInput(_ descriptor: Int32, _ scratch: inout [UInt8]) {
    while true {
      let count = scratch.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return }
    }
  }

  /// Forgets and closes a socket (once).
  private func finish(_ socket: RealtimeSocket) {
    guard sockets.withLock({ $0.removeValue(forKey: socket.descriptor) }) != nil else { return }
    var none = epoll_event()
    epoll_ctl(poller, Int32(EPOLL_CTL_DEL), socket.descriptor, &none)
    socket.closeDescriptor()
    onClose(socket)
  }
}
