import SNMNetwork
import SNMWire

extension CellText {
  /// The cell of a row value handed over as text by `JSONElements.nextRow`: the same cell as
  /// `CellText(value)` gives for the parsed value.
  init(_ kind: JSONFieldKind, _ text: UnsafeBufferPointer<UInt8>, null: String = "NULL") {
    switch kind {
    case .null:
      self.init(display: null, isNull: true)
    case .number:
      self.init(ascii: String(decoding: text, as: UTF8.self), isNumber: true)
    case .bool:
      self.init(ascii: String(decoding: text, as: UTF8.self))
    case .string:
      let string = String(decoding: text, as: UTF8.self)
      self.init(display: string == null ? "\"\(string)\"" : string)
    case .nested:
      self.init(display: String(decoding: text, as: UTF8.self), isAtomic: false)
    }
  }

  /// Whether `CellText(kind, text)` is atomic (kept on one line), found from the bytes.
  static func isAtomic(_ kind: JSONFieldKind, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
    switch kind {
    case .null, .number, .bool: true
    case .string: isAtomic(text)
    case .nested: false
    }
  }

  /// The width `CellText(kind, text)` has, found without making its text when the bytes are
  /// printable ASCII (most cells).
  static func width(
    _ kind: JSONFieldKind, _ text: UnsafeBufferPointer<UInt8>, null: String = "NULL"
  )
    -> Int
  {
    switch kind {
    case .null: return null == "NULL" ? 4 : CellText(display: null).width
    case .number, .bool: return text.count
    case .string, .nested:
      guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
        return CellText(kind, text, null: null).width
      }
      return kind == .string && text.elementsEqual(null.utf8) ? text.count + 2 : text.count
    }
  }
}
