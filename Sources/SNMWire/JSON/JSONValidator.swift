/// Checks that UTF-8 bytes are one JSON value that ``JSONParser`` accepts, without building it,
/// and notes its ``JSONShape`` on the way: one pass, no allocation per value.
///
/// ```swift
/// var validator = JSONValidator(bytes)
/// if let shape = validator.validate() { ... }   // nil: not JSON (parse it to learn why)
/// ```
///
/// It accepts exactly what the parser accepts when it reads answers (the same grammar, escapes,
/// UTF-8 rules and depth limit; lone surrogates taken, ``JSONParser/takesLoneSurrogates``); it
/// does not say why it refused, the parser does that.
struct JSONValidator {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0
  /// Per open container, whether it is an object (no allocation for the first 64 levels).
  private var frames = JSONOpenStack()
  /// The top-level value is an array (its elements are counted, their keys compared).
  private var rootIsArray = false
  private var elements = 0
  private var uniform = true
  /// The first element's keys, as byte ranges of the input.
  private var firstKeys: [Range<Int>] = []
  /// The same keys as words to compare a later row's keys with (``KeyPattern``).
  private var keyPatterns: [KeyPattern] = []
  /// Keys read so far in the element object being checked.
  private var keyIndex = 0

  /// Whether `checkpoint` is kept (``JSONStreamValidator``).
  var recordsCheckpoints = false
  /// Where the last `,` between two elements of the top-level array was passed, and the state
  /// there but the first element's keys, which no element after it changes (kept apart so that
  /// a checkpoint per row copies no array).
  private var checkpointed: (offset: Int, elements: Int, uniform: Bool, keyIndex: Int)?

  /// The state after the last `,` between two elements of the top-level array.
  var checkpoint: Checkpoint? {
    checkpointed.map {
      Checkpoint(
        offset: $0.offset, elements: $0.elements, uniform: $0.uniform, firstKeys: firstKeys,
        keyPatterns: keyPatterns, keyIndex: $0.keyIndex)
    }
  }

  /// The state between two elements of the top-level array, to go on from over more bytes.
  /// Only the array is open there: its frame is not kept (a copy per element made the next
  /// element's first container copy the frames again).
  struct Checkpoint: Sendable {
    var offset: Int
    var elements: Int
    var uniform: Bool
    var firstKeys: [Range<Int>]
    /// The first element's keys as ``KeyPattern``s: made once, as its keys are read.
    var keyPatterns: [KeyPattern]
    var keyIndex: Int
  }

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Goes on from `checkpoint`, over bytes that begin with the ones it was taken on.
  mutating func restore(_ checkpoint: Checkpoint) {
    offset = checkpoint.offset
    frames = JSONOpenStack()
    frames.append(false)
    elements = checkpoint.elements
    uniform = checkpoint.uniform
    firstKeys = checkpoint.firstKeys
    keyPatterns = checkpoint.keyPatterns
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
          switch readMembers() {
          case .invalid: return false
          case .atValue: continue
          case .afterValue: break
          }
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
        guard skipLiteral(Self.trueWord, count: 4) else { return false }
        noteScalarElement()
      case UInt8(ascii: "f"):
        guard skipLiteral(Self.falseWord, count: 5) else { return false }
        noteScalarElement()
      case UInt8(ascii: "n"):
        guard skipLiteral(Self.nullWord, count: 4) else { return false }
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
            switch readMembers() {
            case .invalid: return false
            case .atValue: break
            case .afterValue: continue
            }
          } else if recordsCheckpoints && rootIsArray && frames.count == 1 {
            checkpointed = (offset, elements, uniform, keyIndex)
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
    let isObject = frames.last == true
    frames.removeLast()
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

  /// Where ``readMembers()`` left the walk.
  private enum Resume {
    /// At a value (its first byte, or whitespace before it).
    case atValue
    /// Just past a complete value: a `,`, a closer or whitespace follows.
    case afterValue
    /// The bytes are not JSON.
    case invalid
  }

  /// At a key of an object (its opening quote): reads it and its `:` (``readKey()``), and in a
  /// row of the top-level array after the first, as many of its members as
  /// ``readRowMembers()`` takes.
  @inline(__always)
  private mutating func readMembers() -> Resume {
    if rootIsArray && frames.count == 2 && uniform && elements > 0 {
      return readRowMembers()
    }
    return readKey() ? .atValue : .invalid
  }

  /// A row's members from the key at `offset` while each key is the first row's at its place,
  /// followed at once by `:`, and each value is a string, a number or a literal followed at once
  /// by `,` (one space allowed after the `:` and the `,`, as jsonb writes them): each key in two
  /// word comparisons (``KeyPattern``) and each value checked as the walk checks it, without going
  /// back to the walk's loop. Anything else (a nested value, the row's end, other keys or
  /// whitespace) is left to the walk where it stands: the verdict and the state are the walk's
  /// own (a key read here is one ``sameKeyAsTheFirstRows()`` would take).
  private mutating func readRowMembers() -> Resume {
    let count = bytes.count
    guard let source = bytes.baseAddress else { return readKey() ? .atValue : .invalid }
    var at = offset
    var index = keyIndex
    while index < keyPatterns.count {
      let pattern = keyPatterns[index]
      let length = pattern.length
      guard length > 0, at + 18 <= count, source[at] == UInt8(ascii: "\""),
        ByteWord.load(bytes, at: at + 1) & pattern.lowMask == pattern.low,
        ByteWord.load(bytes, at: at + 9) & pattern.highMask == pattern.high,
        source[at + 1 + length] == UInt8(ascii: ":")
      else { break }
      index += 1
      at += 2 + length
      if at < count && source[at] == 0x20 { at += 1 }
      keyIndex = index
      offset = at
      guard at < count else { return .atValue }
      switch source[at] {
      case UInt8(ascii: "\""):
        guard skipString() else { return .invalid }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard skipNumber() else { return .invalid }
      case UInt8(ascii: "t"):
        guard skipLiteral(Self.trueWord, count: 4) else { return .invalid }
      case UInt8(ascii: "f"):
        guard skipLiteral(Self.falseWord, count: 5) else { return .invalid }
      case UInt8(ascii: "n"):
        guard skipLiteral(Self.nullWord, count: 4) else { return .invalid }
      default:
        return .atValue
      }
      at = offset
      guard at < count, source[at] == UInt8(ascii: ",") else { return .afterValue }
      at += 1
      if at < count && source[at] == 0x20 { at += 1 }
    }
    offset = at
    keyIndex = index
    skipWhitespace()
    return readKey() ? .atValue : .invalid
  }

  /// `"key"` and the `:` after it; a row's keys are compared with the first row's.
  @inline(__always)
  private mutating func readKey() -> Bool {
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else { return false }
    if rootIsArray && frames.count == 2 && uniform {
      if !sameKeyAsTheFirstRows() {
        let start = offset + 1
        guard skipString() else { return false }
        noteKey(start..<offset - 1)
      }
    } else {
      guard skipString() else { return false }
    }
    // Most often the `:` follows the closing quote at once.
    if offset < bytes.count && bytes[offset] == UInt8(ascii: ":") {
      offset += 1
      return true
    }
    skipWhitespace()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else { return false }
    offset += 1
    return true
  }

  /// Steps over the key at `offset` (its opening quote) when it is the first row's key at the
  /// same place, byte for byte to its closing quote: then it is that string, checked already
  /// (a string's verdict depends on its bytes alone), and the rows are still alike. Rows after
  /// the first most often have the same keys, and this is one comparison instead of a scan and
  /// a comparison.
  @inline(__always)
  private mutating func sameKeyAsTheFirstRows() -> Bool {
    guard elements > 0, keyIndex < keyPatterns.count else { return false }
    let pattern = keyPatterns[keyIndex]
    if pattern.length > 0 && offset + 17 <= bytes.count {
      // The key and its closing quote against the first row's, sixteen bytes in two words.
      guard ByteWord.load(bytes, at: offset + 1) & pattern.lowMask == pattern.low,
        ByteWord.load(bytes, at: offset + 9) & pattern.highMask == pattern.high
      else { return false }
      keyIndex += 1
      offset += 1 + pattern.length
      return true
    }
    let first = firstKeys[keyIndex]
    let close = offset + 1 + first.count
    guard close < bytes.count, bytes[close] == UInt8(ascii: "\""),
      Self.sameBytes(bytes, first.lowerBound, offset + 1, first.count)
    else { return false }
    keyIndex += 1
    offset = close + 1
    return true
  }

  private mutating func noteKey(_ key: Range<Int>) {
    let index = keyIndex
    keyIndex = index + 1
    if elements == 0 {
      firstKeys.append(key)
      keyPatterns.append(KeyPattern(bytes, key))
      return
    }
    guard index < firstKeys.count else {
      uniform = false
      return
    }
    let first = firstKeys[index]
    guard first.count == key.count,
      Self.sameBytes(bytes, first.lowerBound, key.lowerBound, key.count)
    else {
      uniform = false
      return
    }
  }

  /// A first row's key and its closing quote as the two words a later row's key is compared
  /// with, when they are at most sixteen bytes (`length` 0 for a longer key: it is compared
  /// byte for byte with the first row's bytes).
  struct KeyPattern {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var lowMask: UInt64 = 0
    var highMask: UInt64 = 0
    /// The key's bytes and its quote, at most 16; 0 for a longer key.
    var length = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) {
      let length = key.count + 1
      guard length <= 16 else { return }
      for index in 0..<length {
        let byte = UInt64(index < key.count ? bytes[key.lowerBound + index] : 0x22)
        if index < 8 {
          low |= byte << UInt64(index * 8)
        } else {
          high |= byte << UInt64((index - 8) * 8)
        }
      }
      lowMask = length >= 8 ? ~0 : (1 << UInt64(length * 8)) &- 1
      highMask = length <= 8 ? 0 : length == 16 ? ~0 : (1 << UInt64((length - 8) * 8)) &- 1
      self.length = length
    }
  }

  /// Whether the `count` bytes at `one` and at `other` (`one <= other`) are the same, eight at a
  /// time; the last few through one more word when eight bytes can be read there.
  @inline(__always)
  static func sameBytes(
    _ bytes: UnsafeBufferPointer<UInt8>, _ one: Int, _ other: Int, _ count: Int
  ) -> Bool {
    var index = 0
    while index + 8 <= count {
      if ByteWord.load(bytes, at: one + index) != ByteWord.load(bytes, at: other + index) {
        return false
      }
      index += 8
    }
    let left = count - index
    guard left > 0 else { return true }
    if other + index + 8 <= bytes.count {
      // The bytes past the key (its quote and what follows) are masked off.
      let mask: UInt64 = (1 << UInt64(left * 8)) &- 1
      return (ByteWord.load(bytes, at: one + index) ^ ByteWord.load(bytes, at: other + index))
        & mask == 0
    }
    while index < count {
      if bytes[one + index] != bytes[other + index] { return false }
      index += 1
    }
    return true
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

  /// Steps over `literal` (`true`, `false` or `null`, at most eight bytes: `bytes` in the low
  /// bytes of `word`, the first lowest) at `offset`, in one comparison where eight bytes can be
  /// read.
  @inline(__always)
  private mutating func skipLiteral(_ literal: UInt64, count: Int) -> Bool {
    if offset + 8 <= bytes.count {
      let mask: UInt64 = (1 << UInt64(count * 8)) &- 1
      guard ByteWord.load(bytes, at: offset) & mask == literal else { return false }
    } else {
      guard offset + count <= bytes.count else { return false }
      for index in 0..<count
      where UInt64(bytes[offset + index]) != literal >> UInt64(index * 8) & 0xFF {
        return false
      }
    }
    offset += count
    return true
  }

  /// `true`, `false` and `null` as ``skipLiteral(_:count:)`` takes them.
  private static let trueWord: UInt64 = 0x65_75_72_74
  private static let falseWord: UInt64 = 0x65_73_6C_61_66
  private static let nullWord: UInt64 = 0x6C_6C_75_6E

  private mutating func skipNumber() -> Bool {
    guard let end = JSONNumber.scan(bytes, from: offset),
      end == bytes.count || !(bytes[end] &- 0x30 < 10 || bytes[end] == UInt8(ascii: "."))
    else { return false }
    offset = end
    return true
  }

  @inline(__always)
  mutating func skipWhitespace() {
    // Most often there is none.
    if offset < bytes.count && bytes[offset] > 0x20 { return }
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x0a, 0x0d, 0x09: offset += 1
      default: return
      }
    }
  }
}
