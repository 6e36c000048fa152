/// Why a JSON text was rejected, and at which byte.
public struct LocalJSONError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Offset of the offending byte in the UTF-8 input.
  public var offset: Int
  public var reason: String

  public var description: String { "\(reason) at byte \(offset)" }
}

extension LocalJSON {
  /// Parses strict JSON (RFC 8259) from text. Nesting deeper than 512 levels is refused.
  ///
  /// Throws `LocalJSONError` with the byte offset and reason.
  public static func parse(_ text: String) throws(LocalJSONError) -> LocalJSON {
    try parse(Array(text.utf8))
  }

  /// Parses strict JSON from UTF-8 bytes. Throws `LocalJSONError`.
  public static func parse(_ bytes: [UInt8]) throws(LocalJSONError) -> LocalJSON {
    var parser = LocalJSONParser(bytes: bytes)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else {
      throw parser.failure("unexpected data after the value")
    }
    return value
  }
}

struct LocalJSONParser {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func failure(_ reason: String) -> LocalJSONError {
    LocalJSONError(offset: index, reason: reason)
  }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
  }

  mutating func value(depth: Int) throws(LocalJSONError) -> LocalJSON {
    guard depth < 512 else { throw failure("nesting too deep") }
    guard index < bytes.count else { throw failure("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return try number()
    }
  }

  mutating func literal(_ word: String, _ result: LocalJSON) throws(LocalJSONError) -> LocalJSON {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count,
      Array(bytes[index..<index + expected.count]) == expected
    else { throw failure("invalid literal") }
    index += expected.count
    return result
  }

  mutating func object(depth: Int) throws(LocalJSONError) -> LocalJSON {
    index += 1
    var members: [LocalJSON.Member] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw failure("expected a string key")
      }
      let key = try string()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw failure("expected ':'")
      }
      index += 1
      skipSpace()
      members.append(LocalJSON.Member(key, try value(depth: depth + 1)))
      skipSpace()
      guard index < bytes.count else { throw failure("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
      index += 1
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(LocalJSONError) -> LocalJSON {
    index += 1
    var items: [LocalJSON] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      guard index < bytes.count else { throw failure("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
      index += 1
      return .array(items)
    }
  }

  mutating func number() throws(LocalJSONError) -> LocalJSON {
    let start = index
    func digits(_ parser: inout LocalJSONParser) -> Int {
      let begin = parser.index
      while parser.index < parser.bytes.count, (48...57).contains(parser.bytes[parser.index]) {
        parser.index += 1
      }
      return parser.index - begin
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, (48...57).contains(bytes[index]) else {
      throw failure("unexpected character")
    }
    if bytes[index] == UInt8(ascii: "0") { index += 1 } else { _ = digits(&self) }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else { throw failure("expected digits after '.'") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits(&self) > 0 else { throw failure("expected digits in the exponent") }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }
}
