@preconcurrency import CLibPQ
import Foundation
import SNMGateway
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The project's row changes as they commit: a replication connection streams a logical slot
/// decoded by wal2json (format 2, one JSON object a row), so each change arrives when its
/// transaction commits — nothing polls. Realtime itself polls its slot every 100 ms.
///
/// ```swift
/// let stream = try RealtimeReplicationStream(
///   conninfo: conninfo, slot: "snm_realtime", create: true, from: 0,
///   onChange: { change in ... }, onEnd: { stream, reason in ... })  // its thread
/// ```
/// The slot outlives the stream (``RealtimeSlot`` makes and drops it): a stream started again
/// on it from ``delivered`` gets every transaction that committed after the last one it
/// delivered, also those committed while no stream ran. It confirms what it delivered every 10 s
/// (and when asked), so the server may recycle the WAL behind it. A stream that ends other than by
/// ``stop()`` (the connection lost, the walsender terminated) says why through `onEnd`, on its
/// thread, once; ``finished`` is signalled once its connection is closed.
final class RealtimeReplicationStream: Sendable {
  let slot: String
  /// The libpq connection's address (only the stream's thread uses it once streaming).
  private let address: Int
  private let stopped = Atomic<Bool>(false)
  /// The connection is not closed yet (``stop()`` wakes its thread only then: a closed
  /// descriptor may already be another's).
  private let open = Mutex(true)
  /// The end of the last transaction delivered whole (its commit record's end), or a position
  /// the server said it had sent everything before, outside a transaction: a stream started
  /// from here misses nothing and repeats nothing.
  let delivered: Atomic<UInt64>
  /// Signalled once the stream's connection is closed (its walsender then ends).
  let finished = DispatchSemaphore(value: 0)

  /// Opens the connection, makes the slot when `create`, and streams it from `from` (or where the
  /// slot confirmed, when later); `onChange` gets each change's JSON on the stream's thread, and
  /// `onEnd` the stream and why, if it ends unasked.
  init(
    conninfo: String, slot: String, create: Bool, from position: UInt64,
    onChange: @escaping @Sendable (JSONValue) -> Void,
    onEnd: @escaping @Sendable (RealtimeReplicationStream, String) -> Void
  ) throws(PGError) {
    self.slot = slot
    delivered = Atomic(position)
    let handle = try Self.connect(conninfo)
    address = Int(bitPattern: handle)
    do throws(PGError) {
      try start(handle, create: create, from: position)
    } catch {
      PQfinish(handle)
      throw error
    }
    let thread = Thread { [self] in
      let reason = run(onChange)
      finished.signal()
      if let reason { onEnd(self, reason) }
    }
    thread.name = "snm-realtime-changes"
    thread.start()
  }

  /// A replication connection (`replication=database`) to the database `conninfo` names, for the
  /// caller to finish (`PQfinish`); throws as `PGConnection.connect`.
  static func connect(_ conninfo: String) throws(PGError) -> OpaquePointer {
    try PGConnection.connect(
      conninfo + " replication=database", what: "the replication connection")
  }

  /// Makes the slot (when `create`) and starts streaming it from `position`. Transactions are
  /// marked (`B`, `C`) so the stream knows where each one ends.
  private func start(_ handle: OpaquePointer, create: Bool, from position: UInt64)
    throws(PGError)
  {
    // Commit times and timestamps in UTC, as Realtime gives them.
    try command(handle, "SET timezone = 'UTC'", PGRES_COMMAND_OK)
    if create {
      try command(
        handle, "CREATE_REPLICATION_SLOT \(slot) LOGICAL wal2json NOEXPORT_SNAPSHOT",
        PGRES_TUPLES_OK)
    }
    let lsn = String(position >> 32, radix: 16) + "/" + String(position & 0xFFFF_FFFF, radix: 16)
    try command(
      handle,
      "START_REPLICATION SLOT \(slot) LOGICAL \(lsn) (\"format-version\" '2', "
        + "\"include-pk\" 'true', \"include-timestamp\" 'true', \"include-type-oids\" 'true', "
        + "\"include-xids\" 'true', \"include-transaction\" 'true')",
      PGRES_COPY_BOTH)
  }

  private func command(_ handle: OpaquePointer, _ sql: String, _ expected: ExecStatusType)
    throws(PGError)
  {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    guard PQresultStatus(result) == expected else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      throw PGError(
        kind: .server, sqlState: state,
        message: String(cString: PQerrorMessage(handle)).trimmingCharacters(
          in: .whitespacesAndNewlines))
    }
  }

  /// Ends the stream (its slot stays): its thread is woken at once, so the walsender ends and
  /// the slot can be dropped right after.
  func stop() {
    stopped.store(true, ordering: .releasing)
    open.withLock { open in
      guard open, let handle = OpaquePointer(bitPattern: address) else { return }
      shutdown(PQsocket(handle), Int32(SHUT_RDWR))
    }
  }

  /// Streams until stopped (nil) or until the stream breaks (why).
  private func run(_ onChange: @Sendable (JSONValue) -> Void) -> String? {
    guard let handle = OpaquePointer(bitPattern: address) else { return "no connection" }
    defer {
      open.withLock { open in
        open = false
        PQfinish(handle)
      }
    }
    var delivered = self.delivered.load(ordering: .relaxed)
    var inTransaction = false
    var lastStatus = monotonicSeconds()
    while !stopped.load(ordering: .acquiring) {
      var buffer: UnsafeMutablePointer<CChar>?
      let count = PQgetCopyData(handle, &buffer, 1)
      if count > 0, let buffer {
        let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(count))
        switch bytes.first {
        case UInt8(ascii: "w") where bytes.count >= 25:
          switch Self.mark(bytes) {
          case UInt8(ascii: "B"): inTransaction = true
          case UInt8(ascii: "C"):
            // The commit's message starts at the end of its record.
            inTransaction = false
            delivered = max(delivered, Self.uint64(bytes, at: 1))
            self.delivered.store(delivered, ordering: .relaxed)
          default:
            if let change = try? JSONValue(parsing: Array(bytes[25...])) { onChange(change) }
          }
        case UInt8(ascii: "k") where bytes.count >= 18:
          // Outside a transaction, everything before the server's position was sent.
          if !inTransaction {
            delivered = max(delivered, Self.uint64(bytes, at: 1))
            self.delivered.store(delivered, ordering: .relaxed)
          }
          if bytes[17] == 1 {
            sendStatus(handle, delivered)
            lastStatus = monotonicSeconds()
          }
        default: break
        }
        PQfreemem(buffer)
      } else if count == 0 {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 1_000)
        guard PQconsumeInput(handle) == 1 else {
          return stopped.load(ordering: .acquiring) ? nil : Self.failure(handle)
        }
      } else if count == -1 {
        return stopped.load(ordering: .acquiring) ? nil : "the server ended the stream"
      } else {
        return stopped.load(ordering: .acquiring) ? nil : Self.failure(handle)
      }
      // Also between changes: a long run of them must not starve the server's timeout.
      if monotonicSeconds() - lastStatus >= 10 {
        sendStatus(handle, delivered)
        lastStatus = monotonicSeconds()
      }
    }
    return nil
  }

  private static let actionPrefix = Array(#"{"action":""#.utf8)

  /// `B` or `C` for wal2json's transaction marks (`{"action":"B",...}`), else 0.
  private static func mark(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
    let prefix = actionPrefix
    guard bytes.count >= 25 + prefix.count + 2 else { return 0 }
    for (index, byte) in prefix.enumerated() where bytes[25 + index] != byte { return 0 }
    let action = bytes[25 + prefix.count]
    guard bytes[25 + prefix.count + 1] == UInt8(ascii: "\"") else { return 0 }
    return action == UInt8(ascii: "B") || action == UInt8(ascii: "C") ? action : 0
  }

  /// libpq's last error, on one line.
  private static func failure(_ handle: OpaquePointer) -> String {
    let text = String(cString: PQerrorMessage(handle)).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      .joined(separator: " ")
    return text.isEmpty ? "the connection was lost" : text
  }

  /// A standby status update: everything up to `position` is written, flushed and applied.
  private func sendStatus(_ handle: OpaquePointer, _ position: UInt64) {
    var message: [UInt8] = [UInt8(ascii: "r")]
    for _ in 0..<3 { Self.append(position, to: &message) }
    let epoch2000 = 946_684_800.0
    Self.append(
      UInt64(max(0, (Date().timeIntervalSince1970 - epoch2000) * 1_000_000)), to: &message)
    message.append(0)
    message.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        _ = PQputCopyData(handle, $0.baseAddress, Int32($0.count))
      }
    }
    _ = PQflush(handle)
  }

  private static func uint64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<offset + 8 { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }
}
