import Foundation
import SNMQuery
import SNMSupabase
import SNMWire
import Synchronization

/// The shell's Realtime connection: one socket, opened by the first statement that needs it,
/// and the subscriptions made on it, each with the events received since it went live, in order.
///
/// ```swift
/// let session = RealtimeSession()
/// try await session.listen(name: "todos", config: config, projectURL: url, key: key, token: t)
/// let event = await session.next(from: "todos", within: .seconds(5)) { $0.kind == "INSERT" }
/// ```
/// At the prompt, the printer prints each event as it arrives (it stays queued for `expect event`),
/// above the line being typed when one is (``attach(prompt:)``).
final class RealtimeSession: Sendable {
  /// How many events a subscription keeps unread; older ones go, and `expect event` says so.
  static let queueLimit = 10_000
  /// How many bytes (``RealtimeEvent/footprint``) the unread events of all subscriptions hold
  /// together at most; past it the oldest go, whichever subscription they wait in.
  static let queueBytes = 64 << 20
  /// How long `listen` waits for a postgres subscription to go live.
  static let liveTimeout: Duration = .seconds(15)

  struct Subscription: Sendable {
    var topic: String
    /// Shown to people (`unlisten`, `expect event`); nil for a channel joined only to send.
    var listening: Bool
    var presence: Bool
    var postgres: Bool
    var live = false
    /// Why the server ended it or refused it going live, or the socket ended under it.
    var failure: RealtimeChannelEnd?
    /// Events not yet taken, each with its arrival number (for `expect event` across
    /// subscriptions); what overflowed it is counted there.
    var queue = RealtimeEventQueue(limit: RealtimeSession.queueLimit)
  }

  private struct State {
    var socket: RealtimeSocket?
    var token: String?
    var subscriptions: [String: Subscription] = [:]
    /// Why the socket ended (always `.socket`), once it did.
    var socketFailure: RealtimeChannelEnd?
    var printer: (@Sendable (RealtimeEvent) -> Void)?
    /// The prompt events print above while a line is edited; nil: they print at once.
    var prompt: (any LineReader)?
    var generation = 0
    /// The arrival number of the last event queued.
    var arrived = 0
    /// The number of the socket in use (each opened gets the next): what an older one
    /// reports, after `unlisten all` closed it, is not about this one.
    var sockets = 0

    /// Drops the oldest unread events, across subscriptions, until they hold at most
    /// ``RealtimeSession/queueBytes``.
    mutating func keepWithinBytes() {
      var total = subscriptions.values.reduce(0) { $0 + $1.queue.bytes }
      while total > RealtimeSession.queueBytes {
        let oldest = subscriptions.compactMap { name, sub in sub.queue.firstOrder.map { (name, $0) }
        }
        .min { $0.1 < $1.1 }
        guard let name = oldest?.0, let before = subscriptions[name]?.queue.bytes else { return }
        subscriptions[name]?.queue.dropOldest()
        total -= before - (subscriptions[name]?.queue.bytes ?? 0)
      }
    }
  }

  private let state = Mutex(State())
  /// Woken whenever anything arrives (a new generation).
  private let arrivals = AsyncWaiters()

  /// Where events go as they arrive (the prompt); nil: queued only.
  func setPrinter(_ printer: (@Sendable (RealtimeEvent) -> Void)?) {
    state.withLock { $0.printer = printer }
  }

  /// Has the printer's events print above the line being edited at `prompt`.
  func attach(prompt: any LineReader) {
    state.withLock { $0.prompt = prompt }
  }

  /// The names listened to, in no order.
  var names: [String] {
    state.withLock { $0.subscriptions.filter(\.value.listening).map(\.key) }
  }

  func subscription(_ name: String) -> Subscription? {
    state.withLock { $0.subscriptions[name] }
  }

  /// The open socket, opened first when there is none (over TLS for `https://`, trusting
  /// `certificateAuthorities`, as requests do); the token pushed when it changed.
  func socket(
    projectURL: String, key: String, token: String, certificateAuthorities: String? = nil
  ) async throws(RealtimeError) -> RealtimeSocket {
    if let socket = state.withLock({ $0.socket }) {
      let changed = state.withLock { state in
        defer { state.token = token }
        return state.token != token
      }
      if changed { socket.updateAccessToken(token) }
      return socket
    }
    let number = state.withLock { state in
      state.sockets += 1
      return state.sockets
    }
    let socket = try await RealtimeSocket.open(
      projectURL: projectURL, apikey: key, certificateAuthorities: certificateAuthorities
    ) {
      [weak self] event in
      self?.receive(event, socket: number)
    }
    state.withLock { state in
      state.socket = socket
      state.token = token
      state.socketFailure = nil
    }
    return socket
  }

  /// Joins `name`'s topic; returns once it is live (for postgres_changes, once the server says
  /// "Subscribed to PostgreSQL"), or throws why not.
  func join(
    _ name: String, config: RealtimeChannelConfig, listening: Bool, socket: RealtimeSocket,
    token: String
  ) async throws(RealtimeJoinFailure) {
    let topic = RealtimeCall.topic(name)
    state.withLock { state in
      state.subscriptions[name] = Subscription(
        topic: topic, listening: listening, presence: config.presence,
        postgres: !config.postgresChanges.isEmpty)
    }
    do throws(RealtimeError) {
      _ = try await socket.join(topic, payload: config.joinPayload(accessToken: token))
    } catch {
      state.withLock { _ = $0.subscriptions.removeValue(forKey: name) }
      throw .refused(error)
    }
    guard !config.postgresChanges.isEmpty else {
      markLive(name)
      return
    }
    let deadline = ContinuousClock.now + Self.liveTimeout
    while true {
      let generation = arrivals.generation
      let sub = state.withLock { $0.subscriptions[name] }
      guard let sub else { throw .ended("the channel closed before it went live") }
      // Live first: an end that came after it (the socket closed behind its events) is for
      // `expect event` to report, once the queued events are read.
      if sub.live { return }
      if let failure = sub.failure {
        await leave(name)
        throw .notLive("\(failure)")
      }
      if ContinuousClock.now >= deadline {
        await leave(name)
        throw .timedOut(Int(Self.liveTimeout.components.seconds))
      }
      await arrivals.wait(after: generation, until: deadline)
    }
  }

  /// Leaves one subscription (and forgets its events).
  func leave(_ name: String) async {
    let (socket, topic) = state.withLock { state in
      (state.socket, state.subscriptions.removeValue(forKey: name)?.topic)
    }
    if let socket, let topic { await socket.leave(topic) }
  }

  /// Leaves every subscription and closes the socket.
  func leaveAll() async {
    let socket = state.withLock { state in
      defer {
        state.subscriptions = [:]
        state.socket = nil
        state.token = nil
        state.sockets += 1
      }
      return state.socket
    }
    socket?.close()
  }

  /// The first queued event of `names` (any subscription when empty) that `matches`, taken out
  /// of its queue; waits for one until `deadline`. Each event is looked at once: a wake examines
  /// only what arrived since the last look. Queued events come first; then, once the socket (or
  /// every subscription named) has ended, `.ended` says why rather than waiting on for nothing.
  func next(
    from names: [String], until deadline: ContinuousClock.Instant,
    matching matches: (RealtimeEvent) -> Bool
  ) async -> RealtimeTake {
    var examined: [String: Int] = [:]
    while true {
      let generation = arrivals.generation
      let found = state.withLock { state -> RealtimeTake? in
        let chosen = names.isEmpty ? Array(state.subscriptions.keys).sorted() : names
        var best: (name: String, order: Int)?
        for name in chosen {
          guard let queue = state.subscriptions[name]?.queue else { continue }
          let hit = queue.first(after: examined[name], where: matches)
          if let last = queue.lastOrder { examined[name] = max(examined[name] ?? last, last) }
          guard let hit else { continue }
          if best.map({ hit.order < $0.order }) ?? true { best = (name, hit.order) }
        }
        if let best, let event = state.subscriptions[best.name]?.queue.remove(order: best.order) {
          return .event(event)
        }
        if let failure = state.socketFailure { return .ended(failure) }
        let failures = names.compactMap { state.subscriptions[$0]?.failure }
        if !names.isEmpty, failures.count == names.count, let first = failures.first {
          return .ended(first)
        }
        return nil
      }
      if let found { return found }
      if Task.isCancelled { return .cancelled }
      if ContinuousClock.now >= deadline { return .none }
      await withTaskCancellationHandler {
        await arrivals.wait(after: generation, until: deadline)
      } onCancel: {
        arrivals.wake()
      }
    }
  }

  /// How many events of `names` (every subscription when empty) went unread because their
  /// queue was full.
  func dropped(_ names: [String]) -> Int {
    state.withLock { state in
      let chosen = names.isEmpty ? Array(state.subscriptions.keys) : names
      return chosen.reduce(0) { $0 + (state.subscriptions[$1]?.queue.dropped ?? 0) }
    }
  }

  /// The events queued so far for `name` (for the trace of a failed `expect event`).
  func queued(_ names: [String]) -> [RealtimeEvent] {
    state.withLock { state in
      let chosen = names.isEmpty ? Array(state.subscriptions.keys) : names
      return chosen.flatMap { name in state.subscriptions[name].map(\.queue.events) ?? [] }
        .sorted { $0.order < $1.order }.map(\.event)
    }
  }

  /// Why the socket ended, if it did.
  var socketFailure: RealtimeChannelEnd? { state.withLock { $0.socketFailure } }

  private func markLive(_ name: String) {
    state.withLock { state in
      state.subscriptions[name]?.live = true
      state.generation += 1
    }
    arrivals.wake()
  }

  private func receive(_ event: RealtimeSocket.Event, socket number: Int) {
    switch event {
    case .ended(let error):
      state.withLock { state in
        guard state.sockets == number else { return }
        state.socket = nil
        state.token = nil
        state.socketFailure = .socket(error)
        for name in state.subscriptions.keys {
          if state.subscriptions[name]?.failure == nil {
            state.subscriptions[name]?.failure = state.socketFailure
          }
        }
        state.generation += 1
      }
      arrivals.wake()
    case .message(let message):
      var printed: [RealtimeEvent] = []
      var prompt: (any LineReader)?
      let printer = state.withLock { state -> (@Sendable (RealtimeEvent) -> Void)? in
        prompt = state.prompt
        guard state.sockets == number,
          let name = state.subscriptions.first(where: { $0.value.topic == message.topic })?.key
        else { return nil }
        state.generation += 1
        switch message.event {
        case "system", "phx_error", "phx_close":
          if message.event == "system", message.payload["status"]?.stringValue == "ok",
            message.payload["extension"]?.stringValue == "postgres_changes"
          {
            state.subscriptions[name]?.live = true
          }
          // A `system` error that came first (a rate limit, a policy) is the reason: the close
          // that follows it keeps it rather than saying only that the channel closed.
          let earlier = state.subscriptions[name]?.failure
          if let end = RealtimeChannelEnd(message, after: earlier) {
            state.subscriptions[name]?.failure = end
          }
          return nil
        default:
          guard var sub = state.subscriptions[name], sub.listening else { return nil }
          state.subscriptions[name] = nil  // `sub` the queue's only owner: appends do not copy it
          for event in RealtimeEvent.events(of: message, subscription: name) {
            state.arrived += 1
            sub.queue.append(event, order: state.arrived)
            printed.append(event)
          }
          state.subscriptions[name] = sub
          state.keepWithinBytes()
          return state.printer
        }
      }
      arrivals.wake()
      guard let printer, !printed.isEmpty else { return }
      let events = printed
      let show: @Sendable () -> Void = { for event in events { printer(event) } }
      if let prompt { prompt.printAboveLine(show) } else { show() }
    }
  }
}

/// What waiting for an event came to.
enum RealtimeTake: Sendable {
  case event(RealtimeEvent)
  /// Nothing matched before the deadline.
  case none
  /// Nothing more can come: the socket, or every subscription waited on, ended (why: the first
  /// subscription's end when each ended).
  case ended(RealtimeChannelEnd)
  /// The task waiting was cancelled (a signal).
  case cancelled
}

/// Why `listen` did not go live.
enum RealtimeJoinFailure: Error, Sendable {
  case refused(RealtimeError)
  case notLive(String)
  case timedOut(Int)
  case ended(String)
}
