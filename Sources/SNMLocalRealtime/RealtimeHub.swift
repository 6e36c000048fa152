import Foundation
import SNMWire
import Synchronization

/// The topics of the project: who joined each, and who is present. A broadcast reaches every
/// member of its topic (its sender only when the sender's channel asked for `self`); public and
/// private channels of one name are apart.
package final class RealtimeHub: Sendable {
  struct Member: Sendable {
    var socket: RealtimeSocket
    var channel: RealtimeChannel
  }

  /// Who is present per topic, and the bytes each member's payload takes.
  struct Presences {
    var topics: [String: RealtimePresence] = [:]
    var sizes: [Tracker: Int] = [:]
    var bytes = 0
  }

  struct Tracker: Hashable {
    var hubKey: String
    var owner: ObjectIdentifier
  }

  private let members = Mutex<[String: [ObjectIdentifier: Member]]>([:])
  private let presence = Mutex(Presences())
  private let refs = Atomic<Int>(0)
  /// The most every topic's presence payloads may take together (serialized bytes).
  let presenceLimit: Int
  /// Broadcasts sent and delivered (`max_events_per_second`): each broadcast counts one, and
  /// one more for each member it reaches.
  let events: RealtimeRate
  /// What ends a channel that received a broadcast while ``events`` is at its limit (set by the
  /// service: on the member's queue, `system` `Too many messages per second`, then `phx_close`).
  private let overLimit = Mutex<(@Sendable (RealtimeSocket, RealtimeChannel) -> Void)?>(nil)

  package init(
    presenceLimit: Int = RealtimeLimits().presenceBytes,
    eventsPerSecond: Int = RealtimeLimits().eventsPerSecond
  ) {
    self.presenceLimit = presenceLimit
    events = RealtimeRate(limit: eventsPerSecond)
  }

  /// Sets what ends a channel that received a broadcast past the events limit.
  func onEventsLimit(_ handler: @escaping @Sendable (RealtimeSocket, RealtimeChannel) -> Void) {
    overLimit.withLock { $0 = handler }
  }

  /// Adds a socket's channel to its topic (replacing an earlier join of the same topic).
  func join(_ socket: RealtimeSocket, _ channel: RealtimeChannel) {
    members.withLock {
      $0[channel.hubKey, default: [:]][ObjectIdentifier(socket)] = Member(
        socket: socket, channel: channel)
    }
  }

  /// Updates the channel a member holds (a refreshed token).
  func update(_ socket: RealtimeSocket, _ channel: RealtimeChannel) {
    members.withLock { members in
      guard members[channel.hubKey]?[ObjectIdentifier(socket)] != nil else { return }
      members[channel.hubKey]?[ObjectIdentifier(socket)] = Member(socket: socket, channel: channel)
    }
  }

  /// Removes a socket's channel from its topic; its presence leaves.
  func leave(_ socket: RealtimeSocket, _ channel: RealtimeChannel) {
    members.withLock { members in
      members[channel.hubKey]?[ObjectIdentifier(socket)] = nil
      if members[channel.hubKey]?.isEmpty == true { members[channel.hubKey] = nil }
    }
    untrack(socket, channel)
  }

  /// How many members a topic has.
  func count(_ hubKey: String) -> Int { members.withLock { $0[hubKey]?.count ?? 0 } }

  /// Sends a JSON broadcast payload (`{"type":"broadcast","event":E,"payload":P}`) to the
  /// topic's members.
  package func broadcast(
    hubKey: String, topic: String, payload: JSONValue, from sender: RealtimeSocket?
  ) {
    let message = PhoenixMessage(
      joinRef: nil, ref: nil, topic: topic, event: "broadcast", payload: payload)
    let members = recipients(hubKey, excluding: sender)
    for member in members { member.socket.push(message) }
    counted(members)
  }

  /// Sends a user broadcast (a binary kind 3 from a 2.0.0 client): kind 4 to 2.0.0 members, the
  /// JSON payload to 1.0.0 members (none when the payload is binary, as Realtime drops it).
  func broadcast(hubKey: String, _ broadcast: PhoenixUserBroadcast, from sender: RealtimeSocket?) {
    var outgoing = broadcast
    outgoing.joinRef = nil
    outgoing.ref = nil
    let json = broadcast.jsonBroadcastPayload.map {
      PhoenixMessage(
        joinRef: nil, ref: nil, topic: broadcast.topic, event: "broadcast", payload: $0)
    }
    let members = recipients(hubKey, excluding: sender)
    for member in members {
      switch member.socket.codec.version {
      case .v2: member.socket.push(.userBroadcast(outgoing))
      case .v1: if let json { member.socket.push(json) }
      }
    }
    counted(members)
  }

  /// Counts a broadcast and its deliveries; past the limit, each member that received it has
  /// its channel ended, as Realtime's channels end when they receive one then.
  private func counted(_ members: [Member]) {
    guard events.add(1 + members.count), let handler = overLimit.withLock({ $0 }) else { return }
    for member in members { handler(member.socket, member.channel) }
  }

  private func recipients(_ hubKey: String, excluding sender: RealtimeSocket?) -> [Member] {
    members.withLock { members in
      guard let topic = members[hubKey] else { return [] }
      return topic.values.filter { member in
        guard let sender, member.socket === sender else { return true }
        return member.channel.config.broadcastSelf
      }
    }
  }

  /// The presence state of a topic.
  func presenceState(_ hubKey: String) -> JSONValue {
    presence.withLock { $0.topics[hubKey]?.state ?? .object(JSONObject()) }
  }

  /// Tracks a socket's payload (`size` bytes serialized) on its channel's topic and sends the
  /// diff to every member; false, with nothing tracked, when every topic's presence would then
  /// take more than ``presenceLimit``.
  func track(_ socket: RealtimeSocket, _ channel: RealtimeChannel, payload: JSONObject, size: Int)
    -> Bool
  {
    let ref = nextRef()
    let tracker = Tracker(hubKey: channel.hubKey, owner: ObjectIdentifier(socket))
    let outcome = presence.withLock { presence -> (accepted: Bool, diff: JSONValue?) in
      let bytes = presence.bytes - (presence.sizes[tracker] ?? 0) + size
      guard bytes <= presenceLimit else { return (false, nil) }
      let diff = presence.topics[channel.hubKey, default: RealtimePresence()].track(
        owner: tracker.owner, key: channel.presenceKey, payload: payload, ref: ref)
      presence.bytes = bytes
      presence.sizes[tracker] = size
      return (true, diff)
    }
    if let diff = outcome.diff { sendDiff(diff, channel) }
    return outcome.accepted
  }

  /// Removes what a socket tracked on a channel's topic and sends the diff.
  func untrack(_ socket: RealtimeSocket, _ channel: RealtimeChannel) {
    let diff = presence.withLock { presence -> JSONValue? in
      let tracker = Tracker(hubKey: channel.hubKey, owner: ObjectIdentifier(socket))
      presence.bytes -= presence.sizes.removeValue(forKey: tracker) ?? 0
      let diff = presence.topics[channel.hubKey]?.untrack(owner: tracker.owner)
      if presence.topics[channel.hubKey]?.isEmpty == true { presence.topics[channel.hubKey] = nil }
      return diff
    }
    if let diff { sendDiff(diff, channel) }
  }

  private func sendDiff(_ diff: JSONValue, _ channel: RealtimeChannel) {
    let message = PhoenixMessage(
      joinRef: nil, ref: nil, topic: channel.topic, event: "presence_diff", payload: diff)
    let all = members.withLock { Array(($0[channel.hubKey] ?? [:]).values) }
    for member in all { member.socket.push(message) }
  }

  /// A unique `phx_ref`.
  private func nextRef() -> String {
    let number = refs.add(1, ordering: .relaxed).newValue
    return "snm" + String(number, radix: 36)
  }
}
