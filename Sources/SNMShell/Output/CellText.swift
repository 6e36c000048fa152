import SNMNetwork
import SNMQuery
import SNMWire

/// One value as a table cell shows it.
///
/// ```swift
/// CellText(.null).text                 // "NULL" (dim at a terminal)
/// CellText(.string("null")).text       // "null"
/// CellText(["a": 1]).text              // {"a":1}
/// CellText(.string("a\nb")).text       // a\nb
/// ```
/// NULL never looks like a string: the string `NULL` itself is shown quoted. Control characters
/// are shown escaped, so data can neither break the alignment nor send escape codes to the terminal.
struct CellText {
  /// What is printed.
  let text: String
  /// Columns the text takes.
  let width: Int
  /// Whether the value is JSON null (shown dim when colouring).
  let isNull: Bool
  /// Whether the value is a number (aligned right).
  let isNumber: Bool

  init(_ value: JSONValue) {
    switch value {
    case .null:
      self.init(ascii: "NULL", isNull: true)
    case .string(let string):
      self.init(display: string == "NULL" ? "\"NULL\"" : string)
    case .number(let number):
      self.init(ascii: number.text, isNumber: true)
    case .bool(let flag):
      self.init(ascii: flag ? "true" : "false")
    case .array, .object:
      self.init(display: value.serialized())
    }
  }

  /// Text known to be printable ASCII: its width is its length.
  init(ascii text: String, isNull: Bool = false, isNumber: Bool = false) {
    self.text = text
    self.width = text.utf8.count
    self.isNull = isNull
    self.isNumber = isNumber
  }

  /// Any text: control characters escaped, width measured (one pass over the bytes when it is
  /// plain ASCII, which most cells are).
  init(display text: String) {
    let scan = Self.scan(text)
    let shown = scan.control ? Self.escaped(text) : text
    self.text = shown
    self.width = scan.ascii && !scan.control ? shown.utf8.count : DisplayWidth.of(shown)
    self.isNull = false
    self.isNumber = false
  }

  /// Whether `text` is all ASCII and whether it holds control characters (C0, DEL, or C1 as UTF-8
  /// `C2 80`...`C2 9F`), in one pass over its bytes.
  static func scan(_ text: String) -> (ascii: Bool, control: Bool) {
    func scan<C: Collection<UInt8>>(_ bytes: C) -> (ascii: Bool, control: Bool) {
      var ascii = true
      var control = false
      var previous: UInt8 = 0
      for byte in bytes {
        if byte >= 0x80 {
          ascii = false
          if previous == 0xC2 && byte <= 0x9F { control = true }
        } else if byte < 0x20 || byte == 0x7F {
          control = true
        }
        previous = byte
      }
      return (ascii, control)
    }
    return text.utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(text.utf8)
  }

  /// `text` with control characters written as escapes (`\n`, `\t`, `\r`, `\u{1B}`).
  static func escaped(_ text: String) -> String {
    // One pass over the bytes: C0 controls, DEL, and C1 controls (UTF-8 `C2 80`...`C2 9F`).
    var needs = false
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
        needs = true
        break
      }
      previous = byte
    }
    guard needs else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
