import SNMGateway
import SNMWire

/// Private channels: what the RLS policies on `realtime.messages` allow a subscriber, probed as
/// Realtime probes them. In one transaction, rolled back: probe rows for the topic are inserted
/// as the superuser, then, as the subscriber's role with their claims and `realtime.topic` set,
/// they are read back (read) and one more is inserted (write, `42501` meaning no).
package struct RealtimePolicies: Sendable {
  /// A pool of the cluster's superuser.
  let pool: PGPool

  package init(pool: PGPool) {
    self.pool = pool
  }

  /// What `claims` may do on `topic` (`realtime:<name>`; policies see `<name>` as
  /// `realtime.topic()`); nil when the database could not answer.
  package func access(topic: String, claims: JSONValue, presence: Bool) -> RealtimeAccess? {
    let name = topic.hasPrefix("realtime:") ? String(topic.dropFirst("realtime:".count)) : topic
    let role = claims["role"]?.stringValue ?? "anon"
    let extensions = presence ? "{broadcast,presence}" : "{broadcast}"
    let subscriber = RequestRole(
      role: role, claims: claims.serialized(),
      settings: [
        .init("request.jwt.claim.sub", claims["sub"]?.stringValue ?? ""),
        .init("request.jwt.claim.role", role), .init("realtime.topic", name),
      ])
    do {
      return try pool.transaction(as: nil) { transaction -> RealtimeAccess in
        _ = try transaction.execute(
          "insert into realtime.messages (topic, extension) select $1, unnest($2::text[])",
          [name, extensions])
        _ = try transaction.execute(subscriber.prelude)
        let read =
          try transaction.execute(
            "select count(*) > 0 from realtime.messages where topic = $1 and extension = 'broadcast'",
            [name]
          ).scalar == "t"
        _ = try transaction.execute("savepoint write_probe")
        var write = true
        do {
          _ = try transaction.execute(
            "insert into realtime.messages (topic, extension) values ($1, 'broadcast')", [name])
        } catch let error as PGError where error.sqlState == "42501" {
          write = false
          _ = try transaction.execute("rollback to savepoint write_probe")
        }
        try transaction.rollback()
        return RealtimeAccess(read: read, write: write)
      }
    } catch {
      return nil
    }
  }
}
