@preconcurrency import CLibPQ
import Foundation
import SNMGateway
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The project's row changes as they commit: a replication connection streams a temporary
/// logical slot decoded by wal2json (format 2, one JSON object a row), so each change arrives when
/// its transaction commits — nothing polls. Realtime itself polls its slot every 100 ms.
///
/// ```swift
/// let stream = try RealtimeReplicationStream(
///   conninfo: conninfo, onChange: { change in ... }, onEnd: { stream, reason in ... })  // its thread
/// ```
/// The slot is temporary: it goes when the connection does. The stream confirms what it read
/// every 10 s (and when asked), so the server may recycle the WAL behind it. A stream that ends
/// other than by ``stop()`` (the connection lost, the walsender terminated) says why through
/// `onEnd`, on its thread, once.
final class RealtimeReplicationStream: Sendable {
  let slot: String
  /// The libpq connection's address (only the stream's thread uses it once streaming).
  private let address: Int
  private let stopped = Atomic<Bool>(false)
  /// Streams opened by this process: each slot's name is its own (a terminated stream's slot
  /// may still be going when the next is made).
  private static let opened = Atomic<Int>(0)

  /// Opens the connection, makes the slot and starts streaming; `onChange` gets each change's
  /// JSON on the stream's thread, and `onEnd` the stream and why, if it ends unasked.
  init(
    conninfo: String, onChange: @escaping @Sendable (JSONValue) -> Void,
    onEnd: @escaping @Sendable (RealtimeReplicationStream, String) -> Void
  ) throws(PGError) {
    let number = Self.opened.add(1, ordering: .relaxed).newValue
    slot = "snm_realtime_\(getpid())_\(number)"
    guard let handle = PQconnectdb(conninfo + " replication=database") else {
      throw PGError(kind: .client, message: "out of memory opening the replication connection")
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(
        in: .whitespacesAndNewlines)
      PQfinish(handle)
      throw PGError(kind: .connection, sqlState: "08006", message: message)
    }
    address = Int(bitPattern: handle)
    do throws(PGError) {
      try start(handle)
    } catch {
      PQfinish(handle)
      throw error
    }
    let thread = Thread { [self] in
      let reason = run(onChange)
      if let reason { onEnd(self, reason) }
    }
    thread.name = "snm-realtime-changes"
    thread.start()
  }

  /// Makes the slot and starts streaming it.
  private func start(_ handle: OpaquePointer) throws(PGError) {
    // Commit times and timestamps in UTC, as Realtime gives them.
    try command(handle, "SET timezone = 'UTC'", PGRES_COMMAND_OK)
    try command(
      handle, "CREATE_REPLICATION_SLOT \(slot) TEMPORARY LOGICAL wal2json NOEXPORT_SNAPSHOT",
      PGRES_TUPLES_OK)
    try command(
      handle,
      "START_REPLICATION SLOT \(slot) LOGICAL 0/0 (\"format-version\" '2', \"include-pk\" 'true', "
        + "\"include-timestamp\" 'true', \"include-type-oids\" 'true', \"include-xids\" 'true', "
        + "\"include-transaction\" 'false')",
      PGRES_COPY_BOTH)
  }

  private func command(_ handle: OpaquePointer, _ sql: String, _ expected: ExecStatusType)
    throws(PGError)
  {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    guard PQresultStatus(result) == expected else {
      throw PGError(
        kind: .server,
        message: String(cString: PQerrorMessage(handle)).trimmingCharacters(
          in: .whitespacesAndNewlines))
    }
  }

  /// Ends the stream (the slot goes with the connection).
  func stop() {
    stopped.store(true, ordering: .releasing)
  }

  /// Streams until stopped (nil) or until the stream breaks (why).
  private func run(_ onChange: @Sendable (JSONValue) -> Void) -> String? {
    guard let handle = OpaquePointer(bitPattern: address) else { return "no connection" }
    defer { PQfinish(handle) }
    var received: UInt64 = 0
    var lastStatus = monotonicSeconds()
    while !stopped.load(ordering: .acquiring) {
      var buffer: UnsafeMutablePointer<CChar>?
      let count = PQgetCopyData(handle, &buffer, 1)
      if count > 0, let buffer {
        let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(count))
        switch bytes.first {
        case UInt8(ascii: "w") where bytes.count >= 25:
          received = max(received, Self.uint64(bytes, at: 9))
          if let change = try? JSONValue(parsing: Array(bytes[25...])) { onChange(change) }
        case UInt8(ascii: "k") where bytes.count >= 18:
          received = max(received, Self.uint64(bytes, at: 1))
          if bytes[17] == 1 {
            sendStatus(handle, received)
            lastStatus = monotonicSeconds()
          }
        default: break
        }
        PQfreemem(buffer)
      } else if count == 0 {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 1_000)
        guard PQconsumeInput(handle) == 1 else { return Self.failure(handle) }
      } else if count == -1 {
        return stopped.load(ordering: .acquiring) ? nil : "the server ended the stream"
      } else {
        return Self.failure(handle)
      }
      // Also between changes: a long run of them must not starve the server's timeout.
      if monotonicSeconds() - lastStatus >= 10 {
        sendStatus(handle, received)
        lastStatus = monotonicSeconds()
      }
    }
    return nil
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
