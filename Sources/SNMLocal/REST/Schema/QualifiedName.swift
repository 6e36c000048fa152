/// A schema-qualified database object name: `public.user_info`.
struct QualifiedName: Sendable, Hashable, CustomStringConvertible {
  var schema: String
  var name: String

  var description: String { "\(schema).\(name)" }

  /// `"schema"."name"`, quoted for SQL.
  var sql: String { SQLText.identifier(schema) + "." + SQLText.identifier(name) }
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
