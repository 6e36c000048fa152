import SNMWire

/// One postgres_changes binding of a joined channel: which changes it wants (event, schema,
/// table, filters) and who receives them (the channel's socket, topic and claims).
struct RealtimeSubscription: Sendable {
  var id: Int
  var socket: RealtimeSocket
  var topic: String
  /// `*`, `INSERT`, `UPDATE` or `DELETE`.
  var event: String
  var schema: String
  /// A table, or `*` for every table of the schema in the publication.
  var table: String
  var filters: [RealtimeChangeFilter]
  var claims: JSONValue

  var role: String { claims["role"]?.stringValue ?? "anon" }

  func wants(schema: String, table: String, type: String, record: JSONObject) -> Bool {
    (self.schema == "*" || self.schema == schema) && (self.table == "*" || self.table == table)
      && (event == "*" || event == type) && filters.allSatisfy { $0.matches(record) }
  }
}
