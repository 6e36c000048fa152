/// One value of a TOML document and where it starts.
///
/// ```swift
/// if case .integer(let rows) = document.root["api"]?.table?["max_rows"]?.kind { ... }
/// ```
/// Floats, dates and times are refused by the reader (config.toml has none), so they have no
/// case here.
package struct TOMLValue: Sendable, Equatable {
  package indirect enum Kind: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([TOMLValue])
    /// A `[table]`, an array of tables' element, an inline table, or one made by dotted keys.
    case table(TOMLTable)
  }

  package var kind: Kind
  /// Where the value starts (for a `[table]`, its header; for `[[tables]]`, the first header).
  package var position: TOMLPosition

  package init(_ kind: Kind, at position: TOMLPosition) {
    self.kind = kind
    self.position = position
  }

  package var string: String? {
    if case .string(let value) = kind { return value }
    return nil
  }

  package var integer: Int? {
    if case .integer(let value) = kind { return value }
    return nil
  }

  package var boolean: Bool? {
    if case .boolean(let value) = kind { return value }
    return nil
  }

  package var array: [TOMLValue]? {
    if case .array(let value) = kind { return value }
    return nil
  }

  package var table: TOMLTable? {
    if case .table(let value) = kind { return value }
    return nil
  }

  /// `a string`, `an integer`, ...: for messages that say what was found.
  package var typeName: String {
    switch kind {
    case .string: "a string"
    case .integer: "an integer"
    case .boolean: "a boolean"
    case .array: "an array"
    case .table: "a table"
    }
  }
}
