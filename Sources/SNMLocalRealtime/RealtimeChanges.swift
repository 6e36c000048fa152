import Foundation
import SNMGateway
import SNMWire
import Synchronization

/// postgres_changes: the channels' bindings, and each committed row change (from
/// ``RealtimeReplicationStream``) sent to the bindings it matches under Realtime's rules:
/// tables in the `supabase_realtime` publication only, filters, columns the subscriber's role
/// cannot SELECT left out, RLS checked per subscriber with their claims against the row as it
/// is now (not for DELETE, whose old record is then cut to the primary key), errors for tables
/// without a primary key. Every SQL statement of the service's changes is here.
package final class RealtimeChanges: Sendable {
  let pool: PGPool
  let conninfo: String
  let check: RealtimeRowCheck
  private let subscriptions = Mutex<[RealtimeSubscription]>([])
  private let stream = Mutex<RealtimeReplicationStream?>(nil)
  /// Whether this gateway made ``RealtimeSlot`` (a stream starts again on it), and where the
  /// last stream delivered to.
  private let slot = Mutex<(made: Bool, delivered: UInt64)>((false, 0))
  private let stopped = Atomic<Bool>(false)

  /// Where a message inserted into `realtime.messages` (`realtime.send`) is broadcast:
  /// (topic `realtime:<name>`, private, the JSON broadcast payload).
  private let onMessage: @Sendable (String, Bool, JSONValue) -> Void

  package init(
    pool: PGPool, conninfo: String,
    onMessage: @escaping @Sendable (String, Bool, JSONValue) -> Void = { _, _, _ in }
  ) {
    self.pool = pool
    self.conninfo = conninfo
    self.check = RealtimeRowCheck(pool: pool)
    self.onMessage = onMessage
  }

  /// Ends the stream (without waiting for it).
  func stop() {
    stopped.store(true, ordering: .releasing)
    stream.withLock { $0?.stop() }
  }

  /// After ``stop()``: drops the slot once the stream's connection closed (waiting up to `wait`
  /// seconds), so a stopped project keeps no WAL for it.
  package func release(wait: Double = 3) {
    stop()
    let current = stream.withLock { $0 }
    // A stream that did not end in time may still read the slot: it is left for the next start.
    if let current, current.finished.wait(timeout: .now() + wait) == .timedOut { return }
    dropSlot()
  }

  /// Drops ``RealtimeSlot``: at start, the slot a crashed gateway left (unless this one made
  /// its own since: a stream between two runs keeps it); at stop, this one's. A failure is left
  /// for the next start.
  package func dropSlot() {
    stream.withLock { stream in
      guard stopped.load(ordering: .acquiring) || (stream == nil && !slot.withLock(\.made)) else {
        return
      }
      do throws(PGError) {
        try RealtimeSlot.drop(conninfo: conninfo)
        slot.withLock { $0 = (false, 0) }
      } catch {}
    }
  }

  /// Starts the stream if it is not running (the first join of any channel: `realtime.send`
  /// reaches channels through it too); the reason when it cannot. The first stream of the
  /// gateway makes the slot (dropping one a crashed gateway left); a later one resumes it where
  /// the last one delivered.
  func ensureStream() -> String? {
    stream.withLock { stream in
      guard stream == nil, !stopped.load(ordering: .acquiring) else { return nil }
      let (made, delivered) = slot.withLock { $0 }
      do throws(PGError) {
        if !made { try RealtimeSlot.drop(conninfo: conninfo) }
        stream = try RealtimeReplicationStream(
          conninfo: conninfo, slot: RealtimeSlot.name, create: !made, from: made ? delivered : 0,
          onChange: { [weak self] change in self?.deliver(change) },
          onEnd: { [weak self] ended, reason in self?.streamEnded(ended, reason: reason) })
        slot.withLock { $0.made = true }
        return nil
      } catch {
        // A slot lost (dropped, or given up past max_slot_wal_keep_size) is made again.
        if RealtimeSlot.isLost(error) { slot.withLock { $0 = (false, 0) } }
        return "cannot stream the database's changes: \(error.message)"
      }
    }
  }

  /// The stream broke (its connection lost, the walsender ended): every channel with bindings
  /// is told, the stream is started again on the same slot from where it delivered (what
  /// committed meanwhile is sent then), and the channels are told when it is back.
  private func streamEnded(_ ended: RealtimeReplicationStream, reason: String) {
    let current = stream.withLock { stream -> Bool in
      guard stream === ended else { return false }
      stream = nil
      let delivered = ended.delivered.load(ordering: .relaxed)
      slot.withLock { $0.delivered = max($0.delivered, delivered) }
      return true
    }
    guard current, !stopped.load(ordering: .acquiring) else { return }
    notifyAll(
      status: "error",
      message: "the database's change stream ended (\(reason)): changes are sent once it is"
        + " started again")
    DispatchQueue.global().async { [weak self] in
      var pause = 0.1
      while let self, !self.stopped.load(ordering: .acquiring) {
        if self.ensureStream() == nil {
          self.notifyAll(status: "ok", message: "Subscribed to PostgreSQL")
          return
        }
        Thread.sleep(forTimeInterval: pause)
        pause = min(pause * 2, 2)
      }
    }
  }

  /// A postgres_changes `system` message to every channel with bindings.
  private func notifyAll(status: String, message: String) {
    let channels = subscriptions.withLock { list in
      var seen: [(RealtimeSocket, String)] = []
      for subscription in list
      where !seen.contains(where: { $0.0 === subscription.socket && $0.1 == subscription.topic }) {
        seen.append((subscription.socket, subscription.topic))
      }
      return seen
    }
    for (socket, topic) in channels {
      notify(socket, topic: topic, status: status, message: message)
    }
  }

  private func notify(_ socket: RealtimeSocket, topic: String, status: String, message: String) {
    socket.push(
      RealtimeChannels.system(
        topic: topic, joinRef: socket.channel(topic)?.joinRef, extension: "postgres_changes",
        status: status, message: message))
  }

  /// Adds a channel's bindings (checked against the database first); the message of the first
  /// that cannot be served, with none added.
  func subscribe(
    socket: RealtimeSocket, topic: String, entries: [JSONObject], claims: JSONValue
  ) -> String? {
    var added: [RealtimeSubscription] = []
    let role = claims["role"]?.stringValue ?? "anon"
    // Each binding and each filtered column asks the database (on the REST pool) at the join:
    // a 5 MB join must not ask it hundreds of thousands of times.
    guard entries.count <= Self.maxBindings else {
      return
        "Unable to subscribe to changes: at most \(Self.maxBindings) postgres_changes a channel"
    }
    for entry in entries {
      let event = (entry["event"]?.stringValue ?? "*").uppercased()
      var schema = entry["schema"]?.stringValue ?? "public"
      let table = entry["table"]?.stringValue ?? "*"
      if entry["schema"] == nil && entry["table"] == nil { schema = "*" }
      let parameters = "[event: \(event), schema: \(schema), table: \(table), filters: []]"
      let unable =
        "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: \(parameters)"
      var filters: [RealtimeChangeFilter] = []
      if let text = entry["filter"]?.stringValue, !text.isEmpty {
        let parts = RealtimeChangeFilter.conditions(text)
        guard parts.count <= Self.maxConditions else {
          return "Error parsing `filter` params: at most \(Self.maxConditions) conditions"
        }
        for part in parts {
          do throws(RealtimeChangeFilterError) {
            filters.append(try RealtimeChangeFilter(parsing: part))
          } catch {
            return "Error parsing `filter` params: \(error.message)"
          }
        }
      }
      guard inPublication(schema: schema, table: table) else { return unable }
      if table != "*" {
        var checked: Set<String> = []
        for filter in filters where checked.insert(filter.column).inserted {
          guard canSelect(role: role, schema: schema, table: table, column: filter.column) else {
            return "invalid column for filter \(filter.column)"
          }
        }
      }
      let id = RealtimeChannels.changeID(entry)
      added.append(
        RealtimeSubscription(
          id: id, socket: socket, topic: topic,
          event: ["INSERT", "UPDATE", "DELETE"].contains(event) ? event : "*",
          schema: schema, table: table, filters: filters, claims: claims))
    }
    if let failure = ensureStream() { return failure }
    subscriptions.withLock { list in
      list.removeAll { $0.socket === socket && $0.topic == topic }
      list += added
    }
    return nil
  }

  /// The most postgres_changes entries one join may have.
  static let maxBindings = 100
  /// The most conditions one `filter` may have (Realtime's takes one).
  static let maxConditions = 100

  func unsubscribe(socket: RealtimeSocket, topic: String?) {
    subscriptions.withLock { list in
      list.removeAll { $0.socket === socket && (topic == nil || $0.topic == topic) }
    }
  }

  /// New claims for a channel's bindings (a refreshed token).
  func update(socket: RealtimeSocket, topic: String, claims: JSONValue) {
    subscriptions.withLock { list in
      for index in list.indices where list[index].socket === socket && list[index].topic == topic {
        list[index].claims = claims
      }
    }
  }

  private func inPublication(schema: String, table: String) -> Bool {
    let sql = """
      select exists(select 1 from pg_publication_tables where pubname = 'supabase_realtime'
        and ($1 = '*' or schemaname = $1) and ($2 = '*' or tablename = $2))
      """
    return (try? pool.withConnection { try $0.execute(sql, [schema, table]).scalar }) == "t"
  }

  private func canSelect(role: String, schema: String, table: String, column: String) -> Bool {
    let sql =
      "select has_column_privilege($1::name, format('%I.%I', $2::text, $3::text), $4::text, 'SELECT')"
    return (try? pool.withConnection { try $0.execute(sql, [role, schema, table, column]).scalar })
      == "t"
  }

  /// One wal2json change (format 2), sent to each binding it matches.
  func deliver(_ change: JSONValue) {
    guard let action = change["action"]?.stringValue, let schema = change["schema"]?.stringValue,
      let table = change["table"]?.stringValue
    else { return }
    let type: String
    switch action {
    case "I": type = "INSERT"
    case "U": type = "UPDATE"
    case "D": type = "DELETE"
    default: return
    }
    let record = Self.row(change["columns"])
    if schema == "realtime" && table == "messages" {
      if type == "INSERT" { message(record) }
      return
    }
    var oldRecord = Self.row(change["identity"])
    let keyColumns = (change["pk"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    if type == "UPDATE" && oldRecord.isEmpty {
      oldRecord = JSONObject(keyColumns.compactMap { name in record[name].map { (name, $0) } })
    }
    let matchOn = type == "DELETE" ? oldRecord : record
    let matched = subscriptions.withLock { list in
      list.filter { $0.wants(schema: schema, table: table, type: type, record: matchOn) }
    }
    guard !matched.isEmpty else { return }
    let timestamp = Self.commitTimestamp(change["timestamp"]?.stringValue)
    var shapes: [String: (columns: [RealtimeRowCheck.Column], rls: Bool)] = [:]
    // Ids per channel, in the order matched.
    var channels: [(socket: RealtimeSocket, topic: String, claims: JSONValue, ids: [Int])] = []
    // A role whose table shape could not be read: its channels are told the change was not sent.
    var failures: [String: RealtimeRowCheck.Failure] = [:]
    for subscription in matched {
      let role = subscription.claims["role"]?.stringValue ?? "anon"
      if shapes[role] == nil && failures[role] == nil {
        do throws(RealtimeRowCheck.Failure) {
          shapes[role] = try check.shape(role: role, schema: schema, table: table)
        } catch {
          failures[role] = error
        }
      }
      // A filter may read only columns the subscriber can SELECT (checked when it subscribed to
      // one table; here for `*` and for privileges revoked since): one on another never matches.
      if let shape = shapes[role] {
        let visibleNames = Set(shape.columns.filter(\.visible).map(\.name))
        guard subscription.filters.allSatisfy({ visibleNames.contains($0.column) }) else {
          continue
        }
      }
      if let index = channels.firstIndex(where: {
        $0.socket === subscription.socket && $0.topic == subscription.topic
      }) {
        if !channels[index].ids.contains(subscription.id) {
          channels[index].ids.append(subscription.id)
        }
      } else {
        channels.append(
          (subscription.socket, subscription.topic, subscription.claims, [subscription.id]))
      }
    }
    let xid = change["xid"]?.intValue.map(Int64.init)
    for channel in channels {
      let role = channel.claims["role"]?.stringValue ?? "anon"
      guard let shape = shapes[role] else {
        let failure = failures[role] ?? RealtimeRowCheck.Failure(message: "the table was not read")
        undelivered(channel.socket, channel.topic, schema, table, type, failure)
        continue
      }
      var errors: [JSONValue] = []
      let visibleNames = Set(shape.columns.filter(\.visible).map(\.name))
      if keyColumns.isEmpty && type != "DELETE" {
        errors.append("Error 400: Bad Request, no primary key")
      } else if keyColumns.contains(where: { !visibleNames.contains($0) }) {
        errors.append("Error 401: Unauthorized")
      } else if shape.rls && type != "DELETE" {
        let key = keyColumns.compactMap { name -> (String, String, JSONValue)? in
          guard let column = shape.columns.first(where: { $0.name == name }),
            let value = record[name]
          else { return nil }
          return (name, column.type, value)
        }
        do throws(RealtimeRowCheck.Failure) {
          guard
            try check.visible(
              schema: schema, table: table, key: key, claims: channel.claims, xid: xid)
          else { continue }
        } catch {
          undelivered(channel.socket, channel.topic, schema, table, type, error)
          continue
        }
      }
      var data: JSONObject = [
        "schema": .string(schema), "table": .string(table), "commit_timestamp": .string(timestamp),
        "type": .string(type),
        "columns": .array(
          shape.columns.filter(\.visible).map {
            ["name": .string($0.name), "type": .string($0.type)]
          }),
      ]
      let types = Dictionary(
        shape.columns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
      if type != "DELETE" {
        data["record"] = errors.isEmpty ? .object(Self.visible(record, visibleNames, types)) : [:]
      }
      if type != "INSERT" {
        var old = Self.visible(oldRecord, visibleNames, types)
        if type == "DELETE" && shape.rls {
          old = JSONObject(old.filter { keyColumns.contains($0.key) }.map { ($0.key, $0.value) })
        }
        data["old_record"] = .object(old)
      }
      data["errors"] = errors.isEmpty ? .null : .array(errors)
      let payload: JSONValue = ["ids": .array(channel.ids.map { .int($0) }), "data": .object(data)]
      channel.socket.push(
        PhoenixMessage(
          joinRef: nil, ref: nil, topic: channel.topic, event: "postgres_changes", payload: payload)
      )
    }
  }

  /// A change the database could not check for a channel: the channel is told, never left
  /// to wait for it.
  private func undelivered(
    _ socket: RealtimeSocket, _ topic: String, _ schema: String, _ table: String, _ type: String,
    _ failure: RealtimeRowCheck.Failure
  ) {
    notify(
      socket, topic: topic, status: "error",
      message: "a change (\(type)) to \(schema).\(table) was not sent: \(failure.message)")
  }

  /// A committed `realtime.messages` row of the broadcast extension, sent to its topic as
  /// `{"type":"broadcast","event":E,"payload":P,"meta":{"id":…}}`.
  private func message(_ row: JSONObject) {
    guard row["extension"]?.stringValue == "broadcast", let topic = row["topic"]?.stringValue,
      let event = row["event"]?.stringValue
    else { return }
    let payload = row["payload"]?.stringValue.flatMap { try? JSONValue(parsing: $0) } ?? [:]
    var broadcast: JSONObject = ["type": "broadcast", "event": .string(event), "payload": payload]
    if let id = row["id"]?.stringValue { broadcast.append("meta", ["id": .string(id)]) }
    onMessage("realtime:" + topic, row["private"]?.boolValue ?? true, .object(broadcast))
  }

  /// wal2json's columns as a record: name -> value.
  private static func row(_ columns: JSONValue?) -> JSONObject {
    var record = JSONObject()
    for column in columns?.arrayValue ?? [] {
      guard let name = column["name"]?.stringValue else { continue }
      record.append(name, column["value"] ?? .null)
    }
    return record
  }

  /// The columns `role` may see, values as Realtime gives them (json parsed, timestamps ISO).
  private static func visible(_ record: JSONObject, _ names: Set<String>, _ types: [String: String])
    -> JSONObject
  {
    var out = JSONObject()
    for (name, value) in record where names.contains(name) {
      out.append(name, converted(value, type: types[name] ?? ""))
    }
    return out
  }

  private static func converted(_ value: JSONValue, type: String) -> JSONValue {
    guard case .string(let text) = value else { return value }
    switch type {
    case "json", "jsonb": return (try? JSONValue(parsing: text)) ?? value
    case "timestamptz", "timestamp":
      var iso = text.replacingOccurrences(of: " ", with: "T")
      if iso.hasSuffix("+00") { iso += ":00" }
      return .string(iso)
    default: return value
    }
  }

  /// `2026-12-04 16:20:01.123456+00` -> `2026-12-04T16:20:01.123Z` (the stream runs in UTC).
  static func commitTimestamp(_ text: String?) -> String {
    guard let text, text.count >= 19 else { return "" }
    let seconds = text.prefix(19).replacingOccurrences(of: " ", with: "T")
    var fraction = "000"
    if let dot = text.firstIndex(of: ".") {
      let digits = text[text.index(after: dot)...].prefix { $0.isNumber }
      fraction = String((digits + "000").prefix(3))
    }
    return seconds + "." + fraction + "Z"
  }
}
