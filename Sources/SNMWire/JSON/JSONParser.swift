/// Parses UTF-8 JSON text into a ``JSONValue`` without recursion.
///
/// Values wait on one stack until their container closes, which then copies them into an array of
/// exactly the right size; keys of consecutive objects at the same depth are compared with the last
/// ones seen there and share one key array when equal (rows of a result all share their keys).
struct JSONParser {
  /// Arrays and objects nested deeper than this are refused: deeper than Postgres stores in a
  /// `jsonb` value with its default `max_stack_depth` (2 MB: about 14,500 levels of arrays and
  /// 13,000 of objects), plus the rows around it, so whatever another user stored can be read.
  static let maximumDepth = 16_384

  private struct Frame {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0
  private let values = JSONParserStack<JSONValue>(capacity: 256)
  private let keys = JSONParserStack<String>(capacity: 64)
  private var frames: [Frame] = []
  /// Per depth, the keys of the last object closed there.
  private var recentKeys: [[String]] = []
  /// Reused buffer for strings with escapes.
  var scratch: [UInt8] = []
  /// Containers already open around the values parsed (1 for the elements of an array walked by
  /// ``JSONArrayCursor``), counted against ``maximumDepth``.
  let baseDepth: Int
  /// The most values (scalars, arrays, objects) the parse may hold: past it, it stops before
  /// holding more (each value takes tens of bytes parsed, so a text of small values takes many
  /// times its size).
  var maximumValues = Int.max
  private var valueCount = 0
  /// Whether a `\u` escape of a surrogate without its pair is read (as U+FFFD) rather than
  /// refused: RFC 8259's grammar allows one, and a Postgres `json` value keeps it as sent. Answers
  /// read by the client take them; the local gateway's request bodies do not (nor does jsonb).
  let takesLoneSurrogates: Bool
  /// The lone surrogates of the string last decoded into `scratch`: where each one's U+FFFD
  /// starts there, and where its escape starts in `bytes` (so `rewriteValue` writes it again).
  var loneSurrogates: [(decoded: Int, escape: Int)] = []

  init(_ bytes: UnsafeBufferPointer<UInt8>, baseDepth: Int = 0, takesLoneSurrogates: Bool = false) {
    self.bytes = bytes
    self.baseDepth = baseDepth
    self.takesLoneSurrogates = takesLoneSurrogates
  }

  /// Parses the whole input as one JSON value (surrounding whitespace allowed).
  mutating func parse() throws(JSONParseError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    guard offset == bytes.count else { throw expected("end of input after the JSON value") }
    return value
  }

  /// Parses one JSON value starting at `offset` (whitespace before it allowed) and leaves `offset`
  /// just past it.
  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    while true {
      skipWhitespace()
      guard offset < bytes.count else { throw expected("a JSON value") }
      var value: JSONValue
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        try open(isObject: true)
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          value = closeObject()
        } else {
          try readKey()
          continue
        }
      case UInt8(ascii: "["):
        try open(isObject: false)
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          value = closeArray()
        } else {
          continue
        }
      case UInt8(ascii: "\""): value = .string(try readString(reusing: nil))
      case UInt8(ascii: "t"): value = try readLiteral("true", .bool(true))
      case UInt8(ascii: "f"): value = try readLiteral("false", .bool(false))
      case UInt8(ascii: "n"): value = try readLiteral("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try readNumber()
      default: throw expected("a JSON value")
      }
      // A complete value: hand it to its container, closing containers that end right after it.
      while true {
        valueCount += 1
        guard valueCount <= maximumValues else {
          throw JSONParseError(offset: offset, reason: .tooManyValues(limit: maximumValues))
        }
        guard let frame = frames.last else { return value }
        values.push(value)
        skipWhitespace()
        let byte = offset < bytes.count ? bytes[offset] : 0
        if byte == UInt8(ascii: ",") {
          offset += 1
          if frame.isObject {
            skipWhitespace()
            try readKey()
          }
          break
        } else if frame.isObject && byte == UInt8(ascii: "}") {
          offset += 1
          value = closeObject()
        } else if !frame.isObject && byte == UInt8(ascii: "]") {
          offset += 1
          value = closeArray()
        } else {
          throw expected(
            frame.isObject
              ? "',' or '}' after an object member" : "',' or ']' after an array element")
        }
      }
    }
  }

  private mutating func open(isObject: Bool) throws(JSONParseError) {
    guard frames.count + baseDepth < Self.maximumDepth else {
      throw JSONParseError(offset: offset, reason: .tooDeep(limit: Self.maximumDepth))
    }
    frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count))
    offset += 1
  }

  private mutating func closeArray() -> JSONValue {
    let frame = frames.removeLast()
    return .array(values.popArray(from: frame.valueStart))
  }

  private mutating func closeObject() -> JSONValue {
    let depth = frames.count - 1
    let frame = frames.removeLast()
    let members = values.popArray(from: frame.valueStart)
    let shared: [String]
    if depth < recentKeys.count && keys.topEquals(from: frame.keyStart, recentKeys[depth]) {
      shared = recentKeys[depth]
      keys.drop(from: frame.keyStart)
    } else {
      shared = keys.popArray(from: frame.keyStart)
      if depth < recentKeys.count {
        recentKeys[depth] = shared
      } else {
        recentKeys.append(contentsOf: repeatElement([], count: depth - recentKeys.count))
        recentKeys.append(shared)
      }
    }
    return .object(JSONObject(sharedKeys: shared, values: members))
  }

  /// Reads `"key"` and the `:` after it; the key's text is reused from the previous object at this
  /// depth when it is the same.
  private mutating func readKey() throws(JSONParseError) {
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else {
      throw expected("'\"' to start an object key")
    }
    var candidate: String?
    if let frame = frames.last {
      let depth = frames.count - 1
      let position = keys.count - frame.keyStart
      if depth < recentKeys.count && position < recentKeys[depth].count {
        candidate = recentKeys[depth][position]
      }
    }
    keys.push(try readString(reusing: candidate))
    skipWhitespace()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else {
      throw expected("':' after an object key")
    }
    offset += 1
  }

  private mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError)
    -> JSONValue
  {
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for (index, byte) in text.enumerated() {
      guard offset + index < bytes.count, bytes[offset + index] == byte else {
        offset += index
        throw expected("'\(word)'")
      }
    }
    offset += text.count
    return value
  }

  private mutating func readNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    guard let end = JSONNumber.scan(bytes, from: start),
      end == bytes.count || !(bytes[end] &- 0x30 < 10 || bytes[end] == UInt8(ascii: "."))
    else {
      throw JSONParseError(offset: start, reason: .invalidNumber)
    }
    offset = end
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    return .number(JSONNumber(validatedText: text))
  }

  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x0a, 0x0d, 0x09: offset += 1
      default: return
      }
    }
  }

  func expected(_ what: String) -> JSONParseError {
    JSONParseError(
      offset: offset, reason: .expected(what, found: JSONParseError.describe(bytes, at: offset)))
  }
}
