/// SQL text helpers: every identifier the gateway writes goes through `identifier`.
package enum SQLText {
  /// `name` as a quoted identifier: `"a""b"` for `a"b`.
  package static func identifier(_ name: String) -> String {
    if let plain = quotedPlain(name, nil) { return plain }
    return doubling(name, quote: "\"")
  }

  /// `"schema"."name"`, each part quoted as `identifier` quotes it.
  package static func qualified(_ schema: String, _ name: String) -> String {
    quotedPlain(schema, name) ?? identifier(schema) + "." + identifier(name)
  }

  /// `"first"` or `"first"."second"` written into one new string (the request path's identifiers
  /// are written several times a request, and each `+` was an allocation and a copy); nil when a
  /// name holds a quote, which must be doubled.
  private static func quotedPlain(_ first: String, _ second: String?) -> String? {
    var first = first
    let qualified = second != nil
    var second = second ?? ""
    let quote = UInt8(ascii: "\"")
    return first.withUTF8 { one -> String? in
      second.withUTF8 { two -> String? in
        guard !one.contains(quote), !two.contains(quote) else { return nil }
        let count = one.count + 2 + (qualified ? two.count + 3 : 0)
        return String(unsafeUninitializedCapacity: count) { out in
          var at = 0
          func put(_ part: UnsafeBufferPointer<UInt8>) {
            out[at] = quote
            for byte in part {
              at += 1
              out[at] = byte
            }
            out[at + 1] = quote
            at += 2
          }
          put(one)
          if qualified {
            out[at] = UInt8(ascii: ".")
            at += 1
            put(two)
          }
          return at
        }
      }
    }
  }

  /// `text` as a string literal, for text that comes from the catalog (never from a request).
  package static func literal(_ text: String) -> String {
    doubling(text, quote: "'")
  }

  /// A Postgres text[] literal with every element quoted: `{"a","b\"c"}`, for a statement's
  /// parameter (`= any($1::text[])`). Each `"` and `\` is escaped by code point, so a combining
  /// mark after one (one `Character` with it) does not hide it.
  package static func arrayLiteral(_ values: [String]) -> String {
    var out = "{"
    for (index, value) in values.enumerated() {
      if index > 0 { out += "," }
      out += "\""
      for scalar in value.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { out += "\\" }
        out.unicodeScalars.append(scalar)
      }
      out += "\""
    }
    return out + "}"
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
