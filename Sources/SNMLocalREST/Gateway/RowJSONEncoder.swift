import SNMGateway

/// A streamed read's rows as JSON objects built in the gateway from the columns' text, byte for
/// byte what Postgres's `row_to_json` gives (json.c `composite_to_json` / `datum_to_json`), so
/// that Postgres only sends each column's text, as it does for psql: building the JSON there
/// costs about as much again as reading the rows.
///
/// It knows the built-in types whose JSON follows from their text: numbers (raw unless `NaN` or
/// an infinity, which are strings), booleans, `json`/`jsonb` (raw), dates and timestamps (the
/// ISO text with `T` and a `+hh:mm` offset), the types Postgres writes as their text in a string,
/// and arrays of these; user types (domains, enums, their arrays) as `userTypeKinds` finds them.
/// JSON's dates are ISO whatever the session's `DateStyle`, so dates and timestamps are written
/// from their text only when it is ISO too. A row with any other type (a composite, a type with a
/// cast to json) or a date under another `DateStyle` is left to Postgres (`init` gives nil).
///
/// ```swift
/// let encoder = RowJSONEncoder(columns: ["id", "name"], types: [20, 25], isoDates: true)
/// encoder?.append(row, from: 1, to: &sink)   // {"id":1,"name":"Rex"} (a `ByteSink`)
/// ```
struct RowJSONEncoder: Sendable {
  enum Kind: Sendable, Equatable {
    /// `int2`, `int4`, `int8`, `float4`, `float8`, `numeric`: the text if it is a JSON number.
    case number
    case boolean
    /// `json`, `jsonb`: their text is JSON.
    case json
    /// Text in a JSON string.
    case string
    /// `timestamp`: the first space becomes `T`.
    case timestamp
    /// `timestamptz`: as `timestamp`, and an offset of whole hours gains `:00`.
    case timestampWithZone
    /// An array of one of the kinds above: a JSON array (nested for more dimensions).
    indirect case array(Kind)
  }

  /// What goes before each column's value, one after the other: `{"name":` for the first,
  /// `,"name":` after; `prefixEnds[i]` is where the `i`th ends.
  let prefixBytes: [UInt8]
  let prefixEnds: [Int]
  let kinds: [Kind]

  /// `isoDates`: the session's `DateStyle` is ISO (`datesAreISO`); `userTypes`: the kinds of
  /// types outside the built-in ones (`userTypeKinds`).
  init?(
    columns: some Collection<String>, types: some Collection<UInt32>, isoDates: Bool,
    userTypes: [UInt32: Kind] = [:]
  ) {
    guard columns.count == types.count, !columns.isEmpty else { return nil }
    var kinds: [Kind] = []
    for type in types {
      guard let kind = Self.kind(of: type, isoDates: isoDates) ?? userTypes[type] else {
        return nil
      }
      kinds.append(kind)
    }
    self.kinds = kinds
    var sink = ByteSink()
    var ends: [Int] = []
    for (index, name) in columns.enumerated() {
      sink.reserve(1)
      sink.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
      Array(name.utf8).withUnsafeBytes { Self.appendString($0, to: &sink) }
      sink.reserve(1)
      sink.append(UInt8(ascii: ":"))
      ends.append(sink.count)
    }
    prefixBytes = sink.array()
    prefixEnds = ends
  }

  /// The `index`th column's prefix, as text (for tests).
  func prefix(_ index: Int) -> String {
    let start = index == 0 ? 0 : prefixEnds[index - 1]
    return String(decoding: prefixBytes[start..<prefixEnds[index]], as: UTF8.self)
  }

  /// Whether dates and timestamps have ISO text under `dateStyle` (the `DateStyle` setting the
  /// server reports, `ISO, MDY` by default).
  static func datesAreISO(_ dateStyle: String?) -> Bool {
    dateStyle?.hasPrefix("ISO") ?? false
  }

  /// The kind of the built-in type `oid`, nil for a type Postgres must write itself.
  static func kind(of oid: UInt32, isoDates: Bool) -> Kind? {
    switch oid {
    case 20, 21, 23, 700, 701, 1700: return .number
    case 16: return .boolean
    case 114, 3802: return .json
    // text, varchar, bpchar, name, "char", uuid, oid, bytea, time, timetz, interval, inet,
    // cidr, macaddr, macaddr8, money
    case 25, 1043, 1042, 19, 18, 2950, 26, 17, 1083, 1266, 1186, 869, 650, 829, 774, 790:
      return .string
    case 1082: return isoDates ? .string : nil
    case 1114: return isoDates ? .timestamp : nil
    case 1184: return isoDates ? .timestampWithZone : nil
    default:
      guard let element = arrayElements[oid], let kind = kind(of: element, isoDates: isoDates)
      else { return nil }
      return .array(kind)
    }
  }

  /// The first object id of a type made by a user or an extension (Postgres's
  /// `FirstNormalObjectId`); below it, `kind(of:)` knows every type it writes.
  static let firstUserType: UInt32 = 16384

  /// Asks, for the user types among `types`, what `row_to_json` makes of them: a domain is its
  /// base type's JSON, an array (of a domain or user type too) a JSON array, a composite is left
  /// to Postgres, and any other type (an enum, `citext`, a range) is its text in a string unless
  /// a function casts it to json (`hstore`). One query per level of arrays (none when every
  /// type is built in); nil when a type is left to Postgres.
  static func userTypeKinds(
    _ types: some Collection<UInt32>, isoDates: Bool, connection: PGConnection,
    interrupt: PGInterrupt?
  ) throws(PGError) -> [UInt32: Kind]? {
    var kinds: [UInt32: Kind] = [:]
    var asked = Set(types.filter { $0 >= firstUserType })
    var arrays: [(type: UInt32, element: UInt32)] = []
    for _ in 0..<3 where !asked.isEmpty {
      let list = "{" + asked.map(String.init).joined(separator: ",") + "}"
      let result = try connection.pipeline(
        [PGStatement(SQLWriter.userTypesStatement, [list])], interrupt: interrupt,
        knownCodeOnly: true)[0]
      asked = []
      for row in result.rows {
        guard row.count == 5, let type = row[0].flatMap({ UInt32($0) }),
          let base = row[1].flatMap({ UInt32($0) })
        else { return nil }
        if let element = row[3].flatMap({ UInt32($0) }), element != 0 {
          arrays.append((type, element))
          if kind(of: element, isoDates: isoDates) == nil, kinds[element] == nil {
            asked.insert(element)
          }
        } else if let kind = kind(of: base, isoDates: isoDates) {
          kinds[type] = kind
        } else if base >= firstUserType, ["b", "e", "r", "m"].contains(row[2]), row[4] == "f" {
          kinds[type] = .string
        } else {
          return nil
        }
      }
    }
    for (type, element) in arrays.reversed() {
      guard let kind = kind(of: element, isoDates: isoDates) ?? kinds[element] else { return nil }
      kinds[type] = .array(kind)
    }
    return kinds
  }

  /// The built-in array types (`_int4`, ...) of the types above and their elements' types.
  static let arrayElements: [UInt32: UInt32] = [
    1000: 16, 1005: 21, 1007: 23, 1016: 20, 1021: 700, 1022: 701, 1231: 1700, 199: 114,
    3807: 3802, 1009: 25, 1015: 1043, 1014: 1042, 1003: 19, 1002: 18, 2951: 2950, 1028: 26,
    1001: 17, 1183: 1083, 1270: 1266, 1187: 1186, 1041: 869, 651: 650, 1040: 829, 775: 774,
    791: 790, 1182: 1082, 1115: 1114, 1185: 1184,
  ]

  /// Appends the JSON object of `row`'s columns `first`, `first + 1`, ... to `sink`.
  func append(_ row: PGRawRow, from first: Int32, to sink: inout ByteSink) {
    prefixBytes.withUnsafeBytes { prefixes in
      var start = 0
      for index in kinds.indices {
        let end = prefixEnds[index]
        sink.reserve(end - start)
        sink.append(UnsafeRawBufferPointer(rebasing: prefixes[start..<end]))
        start = end
        guard let cell = row.cell(first + Int32(index)) else {
          sink.reserve(4)
          sink.append(Self.null)
          continue
        }
        Self.appendValue(cell, kind: kinds[index], to: &sink)
      }
    }
    sink.reserve(1)
    sink.append(UInt8(ascii: "}"))
  }

  /// The bytes of a row's object beside its values: the keys, quotes, separators, braces.
  var bytesPerRow: Int { prefixBytes.count + 1 }

  static let null: StaticString = "null"
  static let true_: StaticString = "true"
  static let false_: StaticString = "false"

  /// Appends `text`, a value of `kind`, as JSON (room for it is made here: at most six bytes a
  /// byte, as `\u00xx`, and a few more).
  static func appendValue(_ text: UnsafeRawBufferPointer, kind: Kind, to sink: inout ByteSink) {
    sink.reserve(text.count * 6 + 16)
    appendReserved(text, kind: kind, to: &sink)
  }

  /// `appendValue` once room is made (arrays' elements are written within their array's).
  private static func appendReserved(
    _ text: UnsafeRawBufferPointer, kind: Kind, to sink: inout ByteSink
  ) {
    switch kind {
    case .number:
      if isJSONNumber(text) {
        sink.append(text)
      } else {
        appendString(text, to: &sink)
      }
    case .boolean:
      sink.append(text.first == UInt8(ascii: "t") ? true_ : false_)
    case .json:
      sink.append(text)
    case .string:
      appendString(text, to: &sink)
    case .timestamp, .timestampWithZone:
      appendTimestamp(text, withZone: kind == .timestampWithZone, to: &sink)
    case .array(let element):
      appendArray(text, element: element, to: &sink)
    }
  }

  /// An array's text (`{1,"a b",NULL}`, `{{1,2},{3,4}}`, `[0:1]={1,2}` for other lower bounds) as
  /// `array_to_json` writes it: `[1,"a b",null]`, nested, bounds dropped. A quoted element has
  /// its backslash escapes undone before it is written as its type's JSON. Each element's JSON
  /// is at most six bytes a byte of its text and a few more, as the whole array's room allows.
  private static func appendArray(
    _ text: UnsafeRawBufferPointer, element: Kind, to sink: inout ByteSink
  ) {
    var index = 0
    if text.first == UInt8(ascii: "[") {
      while index < text.count, text[index] != UInt8(ascii: "=") { index += 1 }
      index += 1
    }
    var scratch: [UInt8] = []
    while index < text.count {
      switch text[index] {
      case UInt8(ascii: "{"):
        sink.append(UInt8(ascii: "["))
        index += 1
      case UInt8(ascii: "}"):
        sink.append(UInt8(ascii: "]"))
        index += 1
      case UInt8(ascii: ","):
        sink.append(UInt8(ascii: ","))
        index += 1
      case UInt8(ascii: "\""):
        scratch.removeAll(keepingCapacity: true)
        index += 1
        while index < text.count, text[index] != UInt8(ascii: "\"") {
          if text[index] == UInt8(ascii: "\\") { index += 1 }
          if index < text.count { scratch.append(text[index]) }
          index += 1
        }
        index += 1
        scratch.withUnsafeBytes { appendValue($0, kind: element, to: &sink) }
      default:
        let start = index
        while index < text.count, text[index] != UInt8(ascii: ","), text[index] != UInt8(ascii: "}")
        {
          index += 1
        }
        let value = UnsafeRawBufferPointer(rebasing: text[start..<index])
        if value.elementsEqual("NULL".utf8) {
          sink.append(null)
        } else {
          appendValue(value, kind: element, to: &sink)
        }
      }
    }
  }

  /// A timestamp's ISO text as `row_to_json` writes it: `2024-01-01T10:00:00+05` with `T` for the
  /// first space and, with a zone, `+05:00` for an offset of whole hours (ISO text drops zero
  /// minutes, the XSD form keeps them); `infinity` and the `BC` suffix as they are.
  private static func appendTimestamp(
    _ text: UnsafeRawBufferPointer, withZone: Bool, to sink: inout ByteSink
  ) {
    sink.append(UInt8(ascii: "\""))
    defer { sink.append(UInt8(ascii: "\"")) }
    guard let space = text.firstIndex(of: UInt8(ascii: " ")) else {
      sink.append(text)
      return
    }
    sink.append(UnsafeRawBufferPointer(rebasing: text[..<space]))
    sink.append(UInt8(ascii: "T"))
    let time = UnsafeRawBufferPointer(rebasing: text[(space + 1)...])
    guard withZone,
      let sign = time.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
    else {
      sink.append(time)
      return
    }
    var end = sign + 1
    while end < time.count, time[end] == UInt8(ascii: ":") || isDigit(time[end]) { end += 1 }
    sink.append(UnsafeRawBufferPointer(rebasing: time[..<end]))
    if end - sign == 3 { sink.append(zeroMinutes) }
    sink.append(UnsafeRawBufferPointer(rebasing: time[end...]))
  }

  static let zeroMinutes: StaticString = ":00"

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Whether `text` is a number in JSON's grammar (`-`, digits without a leading zero, an
  /// optional fraction and exponent), as Postgres's `IsValidJsonNumber` decides.
  static func isJSONNumber(_ text: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    let count = text.count
    func digits() -> Int {
      let start = index
      while index < count, isDigit(text[index]) { index += 1 }
      return index - start
    }
    if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count else { return false }
    if text[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      return false
    }
    if index < count, text[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    if index < count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
      index += 1
      if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    return index == count
  }

  /// `text` as a JSON string, escaped as Postgres's `escape_json`:
  /// `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters `\u00xx`; the rest raw.
  /// Not `JSONValue.appendQuoted`: snm's own JSON also escapes C1 controls, Postgres's does not.
  /// Makes room for it (six bytes a byte of `text`, and two).
  /// Bytes that need no escape are skipped eight at a time; a word holding one is gone through
  /// byte by byte.
  static func appendString(_ text: UnsafeRawBufferPointer, to sink: inout ByteSink) {
    sink.reserve(text.count * 6 + 2)
    sink.append(UInt8(ascii: "\""))
    var start = 0
    var index = 0
    let count = text.count
    while index < count {
      while index + 8 <= count,
        !needsEscape(text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      {
        index += 8
      }
      let stop = min(index + 8, count)
      while index < stop {
        let byte = text[index]
        if byte < 0x20 || byte == 0x22 || byte == 0x5C {
          sink.append(UnsafeRawBufferPointer(rebasing: text[start..<index]))
          appendEscaped(byte, to: &sink)
          start = index + 1
        }
        index += 1
      }
    }
    sink.append(UnsafeRawBufferPointer(rebasing: text[start...]))
    sink.append(UInt8(ascii: "\""))
  }

  /// Whether some byte of `word` is a control character, `"` or a backslash (exact for whether,
  /// not for which: a borrow may flag the bytes above one).
  @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func below(_ limit: UInt64, _ word: UInt64) -> UInt64 {
      (word &- ones &* limit) & ~word & highs
    }
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    return below(0x20, word) | below(1, quote) | below(1, backslash) != 0
  }

  static let hex = Array("0123456789abcdef".utf8)

  private static func appendEscaped(_ byte: UInt8, to sink: inout ByteSink) {
    sink.append(0x5C)
    switch byte {
    case 0x22: sink.append(0x22)
    case 0x5C: sink.append(0x5C)
    case 0x08: sink.append(UInt8(ascii: "b"))
    case 0x0C: sink.append(UInt8(ascii: "f"))
    case 0x0A: sink.append(UInt8(ascii: "n"))
    case 0x0D: sink.append(UInt8(ascii: "r"))
    case 0x09: sink.append(UInt8(ascii: "t"))
    default:
      sink.append(UInt8(ascii: "u"))
      sink.append(UInt8(ascii: "0"))
      sink.append(UInt8(ascii: "0"))
      sink.append(hex[Int(byte >> 4)])
      sink.append(hex[Int(byte & 0xF)])
    }
  }
}
