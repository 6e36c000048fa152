/// Checks that UTF-8 bytes are one JSON value that ``JSONParser`` accepts, without building it,
/// and notes its ``JSONShape`` on the way: one pass, no allocation per value.
///
/// ```swift
/// var validator = JSONValidator(bytes)
/// if let shape = validator.validate() { ... }   // nil: not JSON (parse it to learn why)
/// ```
///
/// It accepts exactly what the parser accepts (the same grammar, escapes, UTF-8 rules and depth
/// limit); it does not say why it refused, the parser does that.
struct JSONValidator {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0
  /// Per open container, whether it is an object.
  private var frames: [Bool] = []
  /// The top-level value is an array (its elements are counted, their keys compared).
  private var rootIsArray = false
  private var elements = 0
  private var uniform = true
  /// The first element's keys, as byte ranges of the input.
  private var firstKeys: [Range<Int>] = []
  /// Keys read so far in the element object being checked.
  private var keyIndex = 0

  /// Whether `checkpoint` is kept (``JSONStreamValidator``).
  var recordsCheckpoints = false
  /// The state after the last `,` between two elements of the top-level array.
  private(set) var checkpoint: Checkpoint?

  /// The state between two elements of the top-level array, to go on from over more bytes.
  /// Only the array is open there: its frame is not kept (a copy per element made the next
  /// element's first container copy the frames again).
  struct Checkpoint: Sendable {
    var offset: Int
    var elements: Int
    var uniform: Bool
    var firstKeys: [Range<Int>]
    var keyIndex: Int
  }

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Goes on from `checkpoint`, over bytes that begin with the ones it was taken on.
  mutating func restore(_ checkpoint: Checkpoint) {
    offset = checkpoint.offset
    frames = [false]
    elements = checkpoint.elements
    uniform = checkpoint.uniform
    firstKeys = checkpoint.firstKeys
    keyIndex = checkpoint.keyIndex
    rootIsArray = true
  }

  /// `validate()`, or from a restored checkpoint the rest of its top-level array.
  mutating func run(startingAtRoot: Bool) -> JSONShape? {
    if startingAtRoot { return validate() }
    guard walk() else { return nil }
    return arrayShape
  }

  private var arrayShape: JSONShape {
    JSONShape(kind: .array, count: elements, uniformObjects: uniform && elements > 0)
  }

  /// The shape of the value, or nil when the bytes are not one JSON value.
  mutating func validate() -> JSONShape? {
    skipWhitespace()
    guard offset < bytes.count else { return nil }
    let kind: JSONShape.Kind
    switch bytes[offset] {
    case UInt8(ascii: "{"): kind = .object
    case UInt8(ascii: "["): kind = .array
    case UInt8(ascii: "\""): kind = .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool
    case UInt8(ascii: "n"): kind = .null
    default: kind = .number
    }
    rootIsArray = kind == .array
    guard walk() else { return nil }
    guard rootIsArray else { return JSONShape(kind: kind) }
    return arrayShape
  }

  /// The parser's loop, keeping only what validity needs.
  private mutating func walk() -> Bool {
    while true {
      skipWhitespace()
      guard offset < bytes.count else { return false }
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        guard open(isObject: true) else { return false }
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          close()
        } else {
          guard readKey() else { return false }
          continue
        }
      case UInt8(ascii: "["):
        guard open(isObject: false) else { return false }
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          close()
        } else {
          continue
        }
      case UInt8(ascii: "\""):
        guard skipString() else { return false }
        noteScalarElement()
      case UInt8(ascii: "t"):
        guard skipLiteral("true") else { return false }
        noteScalarElement()
      case UInt8(ascii: "f"):
        guard skipLiteral("false") else { return false }
        noteScalarElement()
      case UInt8(ascii: "n"):
        guard skipLiteral("null") else { return false }
        noteScalarElement()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard skipNumber() else { return false }
        noteScalarElement()
      default:
        return false
      }
      // A complete value: close the containers that end right after it.
      while true {
        guard let isObject = frames.last else {
          skipWhitespace()
          return offset == bytes.count
        }
        skipWhitespace()
        let byte = offset < bytes.count ? bytes[offset] : 0
        if byte == UInt8(ascii: ",") {
          offset += 1
          if isObject {
            skipWhitespace()
            guard readKey() else { return false }
          } else if recordsCheckpoints && rootIsArray && frames.count == 1 {
            checkpoint = Checkpoint(
              offset: offset, elements: elements, uniform: uniform,
              firstKeys: firstKeys, keyIndex: keyIndex)
          }
          break
        } else if isObject && byte == UInt8(ascii: "}") {
          offset += 1
          close()
        } else if !isObject && byte == UInt8(ascii: "]") {
          offset += 1
          close()
        } else {
          return false
        }
      }
    }
  }

  private mutating func open(isObject: Bool) -> Bool {
    guard frames.count < JSONParser.maximumDepth else { return false }
    if rootIsArray && frames.count == 1 {
      // An element of the top-level array: a row when it is an object.
      if isObject { keyIndex = 0 } else { uniform = false }
    }
    frames.append(isObject)
    offset += 1
    return true
  }

  private mutating func close() {
    let isObject = frames.removeLast()
    guard rootIsArray && frames.count == 1 else { return }
    if isObject && elements > 0 && keyIndex != firstKeys.count { uniform = false }
    elements += 1
  }

  /// A scalar just read: counted when it is an element of the top-level array (not a row).
  private mutating func noteScalarElement() {
    guard rootIsArray && frames.count == 1 else { return }
    uniform = false
    elements += 1
  }

  /// `"key"` and the `:` after it; a row's keys are compared with the first row's.
  private mutating func readKey() -> Bool {
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else { return false }
    let start = offset + 1
    guard skipString() else { return false }
    if rootIsArray && frames.count == 2 && uniform {
      noteKey(start..<offset - 1)
    }
    skipWhitespace()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else { return false }
    offset += 1
    return true
  }

  private mutating func noteKey(_ key: Range<Int>) {
    defer { keyIndex += 1 }
    if elements == 0 {
      firstKeys.append(key)
      return
    }
    guard keyIndex < firstKeys.count else {
      uniform = false
      return
    }
    let first = firstKeys[keyIndex]
    guard first.count == key.count else {
      uniform = false
      return
    }
    // Eight bytes at a time, then the rest.
    var index = 0
    while index + 8 <= key.count {
      if ByteWord.load(bytes, at: first.lowerBound + index)
        != ByteWord.load(bytes, at: key.lowerBound + index)
      {
        uniform = false
        return
      }
      index += 8
    }
    while index < key.count {
      if bytes[first.lowerBound + index] != bytes[key.lowerBound + index] {
        uniform = false
        return
      }
      index += 1
    }
  }

  /// The first element's keys as the parser reads them, once `validate()` found the rows
  /// uniform (``JSONShape/uniformObjects``): the key bytes as text, which is what the parser makes
  /// of a key without escapes (the bytes are valid UTF-8); nil when a key has an escape.
  func firstRowKeys() -> [String]? {
    var keys: [String] = []
    keys.reserveCapacity(firstKeys.count)
    for range in firstKeys {
      let key = UnsafeBufferPointer(rebasing: bytes[range])
      if key.contains(UInt8(ascii: "\\")) { return nil }
      keys.append(String(decoding: key, as: UTF8.self))
    }
    return keys
  }

  private mutating func skipLiteral(_ word: StaticString) -> Bool {
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard offset + text.count <= bytes.count else { return false }
    for index in 0..<text.count where bytes[offset + index] != text[index] {
      return false
    }
    offset += text.count
    return true
  }

  private mutating func skipNumber() -> Bool {
    guard let end = JSONNumber.scan(bytes, from: offset),
      end == bytes.count || !(bytes[end] &- 0x30 < 10 || bytes[end] == UInt8(ascii: "."))
    else { return false }
    offset = end
    return true
  }

  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x0a, 0x0d, 0x09: offset += 1
      default: return
      }
    }
  }
}
