@preconcurrency import CLibPQ
import Foundation
import SNMGateway

/// The project's logical replication slot for postgres_changes, `snm_realtime`: made by the
/// first stream of a gateway and kept while it runs, so a stream started again after its
/// connection broke resumes where the last one delivered (Realtime's own slot is temporary, and
/// what commits while its poller reconnects is lost). A slot kept without a reader would hold
/// the WAL behind it, so it never outlives its gateway: dropped when the project stops, and, left
/// by a gateway that crashed, when the next one starts; the cluster also caps what any slot may
/// hold (`max_slot_wal_keep_size`, 1 GiB), past which Postgres gives the slot up.
enum RealtimeSlot {
  static let name = "snm_realtime"

  /// Drops the slot if it exists, waiting for a stream still reading it to end (a walsender
  /// terminated or left by a crashed gateway ends when it notices). Throws what the server said
  /// otherwise.
  static func drop(conninfo: String) throws(PGError) {
    let handle = try RealtimeReplicationStream.connect(conninfo)
    defer { PQfinish(handle) }
    // Asked first, so a start or stop without a slot leaves no error in the server's log.
    let exists = PQexec(handle, "SELECT 1 FROM pg_replication_slots WHERE slot_name = '\(name)'")
    let found = PQresultStatus(exists) == PGRES_TUPLES_OK && PQntuples(exists) > 0
    PQclear(exists)
    guard found else { return }
    let result = PQexec(handle, "DROP_REPLICATION_SLOT \(name) WAIT")
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_COMMAND_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      // 42704: there was none.
      if state == "42704" { return }
      throw PGError(
        kind: .server, sqlState: state,
        message: String(cString: PQerrorMessage(handle)).trimmingCharacters(
          in: .whitespacesAndNewlines))
    }
  }

  /// The slot cannot be streamed any more and must be made again: it is gone (42704), or
  /// Postgres gave it up past `max_slot_wal_keep_size` (55000).
  static func isLost(_ error: PGError) -> Bool {
    error.sqlState == "42704" || error.sqlState == "55000"
  }
}
