/// A JSON value with ordered object keys, rendered to compact text.
///
/// The REST gateway writes small documents itself (error bodies, the OpenAPI root) and wants
/// their keys in a fixed order, which `JSONSerialization` does not keep.
///
///     JSONNode.object([("code", .string("PGRST100")), ("hint", .null)]).rendered
///     // {"code":"PGRST100","hint":null}
indirect enum JSONNode: Sendable, Equatable {
  case object([(String, JSONNode)])
  case array([JSONNode])
  case string(String)
  case int(Int)
  case bool(Bool)
  case null
  /// Text that already is JSON (e.g. a body Postgres built); inserted as is.
  case raw(String)

  static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.rendered == rhs.rendered }

  /// The compact JSON text.
  var rendered: String {
    var out = ""
    render(into: &out)
    return out
  }

  /// Appends the compact JSON text to `out`.
  func render(into out: inout String) {
    switch self {
    case .object(let members):
      out.append("{")
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(",") }
        JSONNode.appendQuoted(member.0, to: &out)
        out.append(":")
        member.1.render(into: &out)
      }
      out.append("}")
    case .array(let items):
      out.append("[")
      for (index, item) in items.enumerated() {
        if index > 0 { out.append(",") }
        item.render(into: &out)
      }
      out.append("]")
    case .string(let text): JSONNode.appendQuoted(text, to: &out)
    case .int(let number): out.append(String(number))
    case .bool(let flag): out.append(flag ? "true" : "false")
    case .null: out.append("null")
    case .raw(let text): out.append(text)
    }
  }

  /// A string or null.
  static func optional(_ text: String?) -> JSONNode {
    text.map(JSONNode.string) ?? .null
  }

  /// Appends `text` as a JSON string literal (quotes, backslash escapes, `\u00XX` controls).
  static func appendQuoted(_ text: String, to out: inout String) {
    out.append("\"")
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out.append("\\\"")
      case "\\": out.append("\\\\")
      case "\n": out.append("\\n")
      case "\r": out.append("\\r")
      case "\t": out.append("\\t")
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out.append("\"")
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var out = ""
    appendQuoted(text, to: &out)
    return out
  }
}
