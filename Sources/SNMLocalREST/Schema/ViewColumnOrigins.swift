/// Where each column of a view comes from, read from the view's stored rule (`pg_rewrite.ev_action`,
/// a `pg_node_tree`): the top query's target list says, for each output column (`resno`), the
/// table and column it was taken from unchanged (`resorigtbl`, `resorigcol`; 0 for an
/// expression). PostgREST reads the same fields to find views' keys (`allViewsKeyDependencies`).
///
///     ViewColumnOrigins.parse("({QUERY ... :targetList ({TARGETENTRY ... :resno 1 ...})})")
///     // [1: (oid: 16390, column: 1)]
///
/// The text is parsed as nodes (`{TYPE :field value ...}`), lists (`(...)`), `<>` and atoms, with
/// `\` escapes and `"..."` strings, so names holding braces or parentheses cannot mislead it.
/// Returns nil for text it cannot read.
enum ViewColumnOrigins {
  struct Origin: Sendable, Hashable {
    var oid: Int
    var column: Int
  }

  static func parse(_ text: String) -> [Int: Origin]? {
    var reader = Reader(Array(text.utf8))
    guard let root = reader.value(), case .list(let queries) = root,
      case .node("QUERY", let fields)? = queries.first,
      case .list(let entries)? = fields["targetList"]
    else { return nil }
    var origins: [Int: Origin] = [:]
    for entry in entries {
      guard case .node("TARGETENTRY", let entryFields) = entry,
        entryFields["resjunk"]?.atom != "true",
        let number = entryFields["resno"]?.integer,
        let oid = entryFields["resorigtbl"]?.integer, oid != 0,
        let column = entryFields["resorigcol"]?.integer, column > 0
      else { continue }
      origins[number] = Origin(oid: oid, column: column)
    }
    return origins
  }

  /// One value of a node tree.
  indirect enum Value {
    case atom(String)
    case list([Value])
    case node(String, [String: Value])

    var atom: String? {
      if case .atom(let text) = self { return text }
      return nil
    }
    var integer: Int? { atom.flatMap { Int($0) } }
  }

  /// A recursive-descent reader over the text's bytes (ASCII structure; names are UTF-8 atoms).
  struct Reader {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
      while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
        position += 1
      }
    }

    mutating func value() -> Value? {
      skipSpace()
      guard let byte = current, depth < 10_000 else { return nil }
      switch byte {
      case UInt8(ascii: "("):
        position += 1
        depth += 1
        defer { depth -= 1 }
        var items: [Value] = []
        while true {
          skipSpace()
          guard let next = current else { return nil }
          if next == UInt8(ascii: ")") {
            position += 1
            return .list(items)
          }
          guard let item = value() else { return nil }
          items.append(item)
        }
      case UInt8(ascii: "{"):
        position += 1
        depth += 1
        defer { depth -= 1 }
        skipSpace()
        let type = atomText()
        var fields: [String: Value] = [:]
        while true {
          skipSpace()
          guard let next = current else { return nil }
          if next == UInt8(ascii: "}") {
            position += 1
            return .node(type, fields)
          }
          if next == UInt8(ascii: ":") {
            position += 1
            let key = atomText()
            skipSpace()
            if current == UInt8(ascii: ":") || current == UInt8(ascii: "}") {
              fields[key] = .atom("")
              continue
            }
            guard let item = value() else { return nil }
            fields[key] = item
          } else if next == UInt8(ascii: "[") {
            skipBytes()  // a Datum's bytes after its length: `:constvalue 4 [ 1 0 0 0 ]`
          } else {
            guard value() != nil else { return nil }  // a stray value: skip it
          }
        }
      case UInt8(ascii: ")"), UInt8(ascii: "}"):
        return nil
      case UInt8(ascii: "["):
        skipBytes()
        return .atom("")
      default:
        return .atom(atomText())
      }
    }

    private mutating func skipBytes() {
      while let byte = current, byte != UInt8(ascii: "]") { position += 1 }
      if current != nil { position += 1 }
    }

    /// An atom up to whitespace or structure, `\x` taken as `x`, `"..."` kept whole.
    private mutating func atomText() -> String {
      var out: [UInt8] = []
      var quoted = false
      while let byte = current {
        if byte == UInt8(ascii: "\\") {
          position += 1
          if let escaped = current {
            out.append(escaped)
            position += 1
          }
          continue
        }
        if byte == UInt8(ascii: "\"") {
          quoted.toggle()
          position += 1
          continue
        }
        if !quoted
          && (byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
            || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}"))
        {
          break
        }
        out.append(byte)
        position += 1
      }
      return String(decoding: out, as: UTF8.self)
    }
  }
}
