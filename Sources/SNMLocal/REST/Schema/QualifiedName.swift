/// A schema-qualified database object name: `public.user_info`.
struct QualifiedName: Sendable, Hashable, CustomStringConvertible {
  var schema: String
  var name: String

  var description: String { "\(schema).\(name)" }

  /// `"schema"."name"`, quoted for SQL.
  var sql: String { SQLText.identifier(schema) + "." + SQLText.identifier(name) }

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

/// SQL text helpers: every identifier the gateway writes goes through `identifier`.
enum SQLText {
  /// `name` as a quoted identifier: `"a""b"` for `a"b`.
  static func identifier(_ name: String) -> String {
    if !name.utf8.contains(UInt8(ascii: "\"")) { return "\"" + name + "\"" }
    return doubling(name, quote: "\"")
  }

  /// `text` as a string literal, for text that comes from the catalog (never from a request).
  static func literal(_ text: String) -> String {
    doubling(text, quote: "'")
  }

  /// `text` between two `quote`s, each `quote` inside doubled.
  private static func doubling(_ text: String, quote: Unicode.Scalar) -> String {
    var out = String.UnicodeScalarView()
    out.append(quote)
    for scalar in text.unicodeScalars {
      out.append(scalar)
      if scalar == quote { out.append(quote) }
    }
    out.append(quote)
    return String(out)
  }
}
