import Foundation
import SNMGateway
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// What delivering one change asks the database: a table's columns for a role, and whether a
/// row is visible to a subscriber (RLS, as them). Neither answer is ever guessed: a statement
/// that fails is tried again, and what still fails is a ``Failure`` the subscriber is told of.
///
/// A change can reach the stream before its transaction is visible: PostgreSQL flushes the
/// commit record (which the walsender then decodes) before it takes the transaction out of the
/// running set, and a busy machine can hold the committing backend between the two. A row
/// checked in that window is not there yet, so ``visible(schema:table:key:claims:xid:)`` asks
/// the same snapshot whether the change's transaction is in it, and waits while it is not.
struct RealtimeRowCheck: Sendable {
  let pool: PGPool
  /// How long a change's transaction may stay out of new snapshots before the check gives up.
  var visibilityLimit: Double = 5
  /// Times a failing statement is sent in all (a pool that timed out is not asked again).
  var attempts = 3

  struct Failure: Error, Sendable {
    var message: String
  }

  typealias Column = (name: String, type: String, visible: Bool)

  /// A table's columns (name, type name, whether `role` may SELECT it) and whether RLS is on.
  func shape(role: String, schema: String, table: String) throws(Failure) -> (
    columns: [Column], rls: Bool
  ) {
    let sql = """
      select a.attname, t.typname, has_column_privilege($1::name, c.oid, a.attname, 'SELECT'), c.relrowsecurity
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_type t on t.oid = a.atttypid
      where n.nspname = $2 and c.relname = $3 order by a.attnum
      """
    let rows = try retrying {
      try pool.withConnection { try $0.execute(sql, [role, schema, table]) }
    }
    .rows
    guard !rows.isEmpty else {
      throw Failure(message: "the table \(schema).\(table) is no longer in the database")
    }
    return (rows.map { row in (row[0] ?? "", row[1] ?? "", row[2] == "t") }, rows[0][3] == "t")
  }

  /// Whether the row with `key` is visible to `claims` now (RLS, as the subscriber), once the
  /// transaction `xid` (wal2json's 32-bit id) is visible; without an id, at once.
  func visible(
    schema: String, table: String, key: [(name: String, type: String, value: JSONValue)],
    claims: JSONValue, xid: Int64?
  ) throws(Failure) -> Bool {
    var conditions: [String] = []
    var parameters: [String?] = []
    for (index, column) in key.enumerated() {
      conditions.append(
        "\(SQLText.identifier(column.name)) = $\(index + 1)::\(SQLText.identifier(column.type))")
      parameters.append(Self.text(column.value))
    }
    let row =
      "exists(select 1 from \(SQLText.qualified(schema, table)) where "
      + conditions.joined(separator: " and ") + ")"
    // The snapshot's own xmax tells the 32-bit id's epoch: the full id is the one nearest it.
    let committed: String
    if let xid {
      parameters.append(String(xid))
      let top = "pg_snapshot_xmax(snap.s)::text::bigint"
      committed =
        "pg_visible_in_snapshot((\(top) + (($\(parameters.count)::bigint - \(top)) % 4294967296"
        + " + 6442450944) % 4294967296 - 2147483648)::text::xid8, snap.s)"
    } else {
      committed = "true"
    }
    let sql = "select \(committed), \(row) from (select pg_current_snapshot() as s) as snap"
    let role = RequestRole(
      role: claims["role"]?.stringValue ?? "anon", claims: claims.serialized(), readOnly: true)
    let deadline = monotonicSeconds() + visibilityLimit
    var pause: UInt32 = 500
    while true {
      let answer = try retrying {
        try pool.transaction(as: role) { try $0.execute(sql, parameters).rows.first }
      }
      if answer?[0] == "t" { return answer?[1] == "t" }
      guard monotonicSeconds() < deadline else {
        throw Failure(
          message:
            "the transaction of this change was still not visible after \(Int(visibilityLimit)) s")
      }
      usleep(pause)
      pause = min(pause * 2, 50_000)
    }
  }

  /// `body`, sent again when it fails, up to `attempts` times in all.
  private func retrying<T>(_ body: () throws -> T) throws(Failure) -> T {
    var attempt = 1
    while true {
      do {
        return try body()
      } catch {
        let pgError = error as? PGError
        guard attempt < attempts, pgError?.kind != .poolTimeout else {
          throw Failure(message: pgError?.message ?? "\(error)")
        }
        attempt += 1
        usleep(UInt32(attempt) * 20_000)
      }
    }
  }

  private static func text(_ value: JSONValue) -> String? {
    switch value {
    case .null: nil
    case .string(let text): text
    case .number(let number): number.text
    case .bool(let flag): flag ? "true" : "false"
    default: value.serialized()
    }
  }
}
