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

  /// Any text: control characters escaped (``VisibleText``), width measured (one pass over the
  /// bytes when it is plain ASCII, which most cells are).
  init(display text: String, isNull: Bool = false) {
    let scan = VisibleText.scan(text)
    let shown = scan.control ? VisibleText.escaped(text) : text
    self.text = shown
    self.width = scan.ascii && !scan.control ? shown.utf8.count : DisplayWidth.of(shown)
    self.isNull = isNull
    self.isNumber = false
  }
}
