import SNMGateway

/// A schema-qualified database object name: `public.user_info`.
struct QualifiedName: Sendable, Hashable, CustomStringConvertible {
  var schema: String
  var name: String

  var description: String { "\(schema).\(name)" }

  /// `"schema"."name"`, quoted for SQL.
  var sql: String { SQLText.qualified(schema, name) }

  /// A name from a setting such as `pgrst.db_pre_request`: `schema.name`, or `name` in `public`
  /// (which is first on Supabase's search path); nil when empty.
  init?(setting: String) {
    let text = setting.trimmingCharacters(in: " \t\"")
    guard !text.isEmpty else { return nil }
    if let dot = text.firstIndex(of: ".") {
      schema = String(text[..<dot]).trimmingCharacters(in: "\"")
      name = String(text[text.index(after: dot)...]).trimmingCharacters(in: "\"")
    } else {
      schema = "public"
      name = text
    }
  }

  init(schema: String, name: String) {
    self.schema = schema
    self.name = name
  }
}
