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
  /// Whether the text must stay on one line when a narrow table wraps its cells: a number,
  /// NULL, a boolean, a UUID, a date or a time (``CellText/isAtomic(_:)``).
  let isAtomic: Bool

  /// The cell of `value`; NULL shows as `null` (`set null`), and a string that reads the same
  /// is shown quoted.
  init(_ value: JSONValue, null: String = "NULL") {
    switch value {
    case .null:
      self.init(display: null, isNull: true)
    case .string(let string):
      self.init(display: string == null ? "\"\(string)\"" : string)
    case .number(let number):
      self.init(ascii: number.text, isNumber: true)
    case .bool(let flag):
      self.init(ascii: flag ? "true" : "false")
    case .array, .object:
      self.init(display: value.serialized(), isAtomic: false)
    }
  }

  /// Text known to be printable ASCII: its width is its length.
  init(ascii text: String, isNull: Bool = false, isNumber: Bool = false, isAtomic: Bool = true) {
    self.text = text
    self.width = text.utf8.count
    self.isNull = isNull
    self.isNumber = isNumber
    self.isAtomic = isAtomic
  }

  /// Any text: control characters escaped (``VisibleText``), width measured (one pass over the
  /// bytes when it is plain ASCII, which most cells are).
  init(display text: String, isNull: Bool = false, isAtomic: Bool? = nil) {
    let scan = VisibleText.scan(text)
    let shown = scan.control ? VisibleText.escaped(text) : text
    self.text = shown
    self.width = scan.ascii && !scan.control ? shown.utf8.count : DisplayWidth.of(shown)
    self.isNull = isNull
    self.isNumber = false
    var bytes = text
    self.isAtomic = isAtomic ?? (isNull || (!scan.control && bytes.withUTF8 { Self.isAtomic($0) }))
  }

  /// Whether a string's UTF-8 reads as a UUID, a date, a time or a timestamp (digits and
  /// `-:.+TZ` and spaces, starting with a digit, at most 40 bytes): text that must be copied
  /// whole, never wrapped.
  static func isAtomic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.count == 36 {
      var uuid = true
      for (index, byte) in bytes.enumerated() {
        let hyphen = index == 8 || index == 13 || index == 18 || index == 23
        let hex =
          (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
          || (0x61...0x66).contains(byte)
        if hyphen ? byte != UInt8(ascii: "-") : !hex {
          uuid = false
          break
        }
      }
      if uuid { return true }
    }
    guard let first = bytes.first, (0x30...0x39).contains(first), bytes.count <= 40 else {
      return false
    }
    return bytes.allSatisfy { byte in
      (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "T")
        || byte == UInt8(ascii: "Z") || byte == UInt8(ascii: " ")
    }
  }
}
