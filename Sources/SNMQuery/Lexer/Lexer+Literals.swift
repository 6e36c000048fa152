extension Lexer {
  /// `'...'`, where `''` is a quote. A string ends on its line; without a closing quote the token
  /// is `.unterminatedString` up to the end of the line.
  mutating func lexSingleQuoted() {
    let start = index
    let (cursor, flags, closed) = bytes.withUnsafeBufferPointer {
      Lexer.scanQuoted($0, from: start + 1, quote: UInt8(ascii: "'"))
    }
    if closed {
      index = cursor + 1
      emit(.singleQuoted, from: start, to: index, flags: flags)
      return
    }
    index = trimmedLineEnd(cursor)
    emit(.unterminatedString, from: start, to: index)
    index = cursor
  }

  /// `"..."` with JSON escapes (`\"`, `\\`, `\n`, `\u00e9`, ...).
  mutating func lexDoubleQuoted() {
    let start = index
    let (cursor, flags, closed) = bytes.withUnsafeBufferPointer {
      Lexer.scanQuoted($0, from: start + 1, quote: UInt8(ascii: "\""))
    }
    if closed {
      index = cursor + 1
      emit(.doubleQuoted, from: start, to: index, flags: flags)
      return
    }
    let end = min(cursor, bytes.count)
    index = trimmedLineEnd(end)
    emit(.unterminatedString, from: start, to: index)
    index = end
  }

  /// The closing `quote` of a string whose text starts at `offset` (`closed`), or the line's end
  /// or the source's where it has none; with the escapes and `$`s seen on the way. In single
  /// quotes `''` is a quote; in double quotes `\` escapes the byte after it unless that is a line
  /// break. One loop over the bytes without bounds checks: strings are most of some statements.
  /// Eight bytes at a time while eight are left: a step over eight bytes that are none of the
  /// quote, a line break, `\` and `$`, or to the first that may be one. The word's test is a
  /// byte below `(` (both quotes, `$`, line breaks and spaces: `NameWord.firstBelow`) or, in
  /// double quotes only, a `\` (`firstEqual`); the byte loop passes a space or another byte it
  /// stopped at for nothing. Inlined where it is used: the quote is known there, and a
  /// single-quoted string's word test is the one.
  /// UUIDs, digits, letters and text that is not ASCII go by a word at a time.
  @inline(__always)
  static func scanQuoted(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, quote: UInt8)
    -> (cursor: Int, flags: Token.Flags, closed: Bool)
  {
    let count = bytes.count
    let double = quote == UInt8(ascii: "\"")
    var flags: Token.Flags = []
    var cursor = offset
    while cursor < count {
      if cursor &+ 8 <= count {
        let word = NameWord.load(bytes, at: cursor)
        // A `\` matters only in double quotes: a single-quoted string's test is one.
        let stops =
          NameWord.firstBelow(UInt8(ascii: "("), in: word)
          | (double ? NameWord.firstEqual(UInt8(ascii: "\\"), in: word) : 0)
        if stops == 0 {
          cursor &+= 8
          continue
        }
        // The first of the four: the byte loop below takes it.
        cursor &+= stops.trailingZeroBitCount &>> 3
      }
      let byte = bytes[cursor]
      // Bytes that are none of the four (most of them) cost one compare: all four are below 0x60.
      if byte >= 0x60 {
        cursor &+= 1
        continue
      }
      if byte == quote {
        if double { return (cursor, flags, true) }
        if cursor + 1 < count && bytes[cursor + 1] == quote {
          flags.insert(.hasEscapes)
          cursor &+= 2
          continue
        }
        return (cursor, flags, true)
      }
      if byte == UInt8(ascii: "\n") { break }
      if double && byte == UInt8(ascii: "\\") {
        flags.insert(.hasEscapes)
        if cursor + 1 < count && bytes[cursor + 1] != UInt8(ascii: "\n") {
          cursor &+= 2
          continue
        }
      }
      if byte == UInt8(ascii: "$") { flags.insert(.hasDollar) }
      cursor &+= 1
    }
    return (cursor, flags, false)
  }

  /// The offset before any `\r` that precedes `end`.
  func trimmedLineEnd(_ end: Int) -> Int {
    var end = min(end, bytes.count)
    while end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return end
  }

  /// `$name`, `$name.field`, `$name[0].field`, `${name.field}`.
  mutating func lexVariable() {
    let start = index
    if peek(1) == UInt8(ascii: "{") {
      let pathEnd = Lexer.variablePathEnd(in: bytes, from: index + 2)
      if pathEnd > index + 2 && pathEnd < bytes.count && bytes[pathEnd] == UInt8(ascii: "}") {
        index = pathEnd + 1
        emit(.variable, from: start, to: index)
        return
      }
      var cursor = index + 2
      while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "}"), bytes[cursor] != 10 {
        cursor += 1
      }
      if cursor < bytes.count && bytes[cursor] == UInt8(ascii: "}") { cursor += 1 }
      index = trimmedLineEnd(cursor)
      emit(.invalid, from: start, to: index)
      index = max(index, start + 1)
      return
    }
    let end = Lexer.variablePathEnd(in: bytes, from: index + 1)
    if end == index + 1 {
      emit(.invalid, from: start, to: end)
      index = end
      return
    }
    index = end
    emit(.variable, from: start, to: end)
  }

  /// The end of `name(.field|[digits])*` starting at `offset`; `offset` itself when no name starts there.
  static func variablePathEnd(in bytes: [UInt8], from offset: Int) -> Int {
    guard offset < bytes.count, isLetter(bytes[offset]) || bytes[offset] == UInt8(ascii: "_") else {
      return offset
    }
    var cursor = offset + 1
    while cursor < bytes.count && isNameByte(bytes[cursor]) { cursor += 1 }
    var segmentStart = offset
    while cursor < bytes.count {
      if bytes[cursor] == UInt8(ascii: "."), cursor + 1 < bytes.count,
        isLetter(bytes[cursor + 1]) || bytes[cursor + 1] == UInt8(ascii: "_")
      {
        // Header names keep their hyphens: `$last.headers.content-range`.
        let hyphens = bytes[segmentStart..<cursor].elementsEqual("headers".utf8)
        segmentStart = cursor + 1
        cursor += 2
        while cursor < bytes.count
          && (isNameByte(bytes[cursor])
            || (hyphens && bytes[cursor] == UInt8(ascii: "-") && cursor + 1 < bytes.count
              && isLetter(bytes[cursor + 1])))
        {
          cursor += 1
        }
      } else if bytes[cursor] == UInt8(ascii: "[") {
        var close = cursor + 1
        while close < bytes.count && isDigit(bytes[close]) { close += 1 }
        guard close > cursor + 1, close < bytes.count, bytes[close] == UInt8(ascii: "]") else {
          break
        }
        cursor = close + 1
      } else {
        break
      }
    }
    return cursor
  }

  /// A token starting with a digit: a UUID, a date, a timestamp or a number.
  mutating func lexNumeric() {
    if let end = uuidEnd(at: index) {
      emit(.uuid, from: index, to: end)
      index = end
      return
    }
    // Dates, and the runs that look like them, have a '-' after four digits: most numbers go
    // straight on.
    guard byte(at: index + 4) == UInt8(ascii: "-") else {
      lexNumber()
      return
    }
    if let (end, kind) = dateEnd(at: index) {
      emit(kind, from: index, to: end)
      index = end
      return
    }
    if digits(at: index, count: 4) {
      // Looks like a date or timestamp but is not one: report the whole run.
      var end = index + 5
      while let next = byte(at: end),
        isNameByte(next) || next == UInt8(ascii: "-") || next == UInt8(ascii: ":")
          || next == UInt8(ascii: ".") || next == UInt8(ascii: "+")
      {
        end += 1
      }
      emit(.malformedNumber, from: index, to: end)
      index = end
      return
    }
    lexNumber()
  }

  /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`; anything glued to it makes it malformed.
  mutating func lexNumber() {
    let start = index
    let (cursor, malformed) = bytes.withUnsafeBufferPointer { Lexer.scanNumber($0, from: start) }
    index = cursor
    emit(malformed ? .malformedNumber : .number, from: start, to: cursor)
  }

  /// The end of the number at `start` and whether it is malformed: one pass over a buffer
  /// pointer (a read of the lexer's array checked its bounds and reloaded it at each byte).
  static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool) {
    let count = bytes.count
    var cursor = start
    var malformed = false
    if bytes[cursor] == UInt8(ascii: "-") { cursor &+= 1 }
    let integerStart = cursor
    while cursor < count && isDigit(bytes[cursor]) { cursor &+= 1 }
    if cursor &- integerStart > 1 && bytes[integerStart] == UInt8(ascii: "0") { malformed = true }
    if cursor &+ 1 < count && bytes[cursor] == UInt8(ascii: ".") && isDigit(bytes[cursor &+ 1]) {
      cursor &+= 1
      while cursor < count && isDigit(bytes[cursor]) { cursor &+= 1 }
    }
    if cursor < count && (bytes[cursor] | 0x20) == UInt8(ascii: "e") {
      var exponent = cursor &+ 1
      if exponent < count,
        bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-")
      {
        exponent &+= 1
      }
      if exponent < count && isDigit(bytes[exponent]) {
        cursor = exponent
        while cursor < count && isDigit(bytes[cursor]) { cursor &+= 1 }
      }
    }
    while cursor < count && (isNameByte(bytes[cursor]) || bytes[cursor] >= 0x80) {
      malformed = true
      cursor &+= 1
    }
    return (cursor, malformed)
  }

  /// The end of a UUID (8-4-4-4-12 hex digits) at `offset`, if one stands there alone.
  @inline(__always) func uuidEnd(at offset: Int) -> Int? {
    // The first dash's place first, where the lexer asks (every number, every word from a to f):
    // most words and numbers are gone at one compare, without a call.
    guard offset + 36 <= bytes.count, bytes[offset + 8] == UInt8(ascii: "-") else { return nil }
    return uuidEnd(dashedAt: offset)
  }

  /// `uuidEnd(at:)` past its first look: a dash at `offset + 8`, and 36 bytes from `offset`.
  func uuidEnd(dashedAt offset: Int) -> Int? {
    let end = offset + 36
    for position in offset..<end {
      let relative = position - offset
      if relative == 8 || relative == 13 || relative == 18 || relative == 23 {
        guard bytes[position] == UInt8(ascii: "-") else { return nil }
      } else {
        guard isHexDigit(bytes[position]) else { return nil }
      }
    }
    if end < bytes.count, isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: "-") { return nil }
    return end
  }

  /// The end of `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH[:MM]]` at `offset`.
  func dateEnd(at offset: Int) -> (Int, TokenKind)? {
    guard digits(at: offset, count: 4), byte(at: offset + 4) == UInt8(ascii: "-"),
      digits(at: offset + 5, count: 2), byte(at: offset + 7) == UInt8(ascii: "-"),
      digits(at: offset + 8, count: 2)
    else { return nil }
    var cursor = offset + 10
    guard let next = byte(at: cursor), next == UInt8(ascii: "T") || next == UInt8(ascii: "t") else {
      return isGlued(at: cursor) ? nil : (cursor, .date)
    }
    guard digits(at: cursor + 1, count: 2), byte(at: cursor + 3) == UInt8(ascii: ":"),
      digits(at: cursor + 4, count: 2)
    else { return nil }
    cursor += 6
    if byte(at: cursor) == UInt8(ascii: ":") && digits(at: cursor + 1, count: 2) {
      cursor += 3
      if byte(at: cursor) == UInt8(ascii: "."), let first = byte(at: cursor + 1), isDigit(first) {
        cursor += 1
        while let digit = byte(at: cursor), isDigit(digit) { cursor += 1 }
      }
    }
    if let zone = byte(at: cursor) {
      if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
        cursor += 1
      } else if (zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-"))
        && digits(at: cursor + 1, count: 2)
      {
        cursor += 3
        if byte(at: cursor) == UInt8(ascii: ":") && digits(at: cursor + 1, count: 2) {
          cursor += 3
        } else if digits(at: cursor, count: 2) {
          cursor += 2
        }
      }
    }
    return isGlued(at: cursor) ? nil : (cursor, .timestamp)
  }

  func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  func digits(at offset: Int, count: Int) -> Bool {
    guard offset + count <= bytes.count else { return false }
    for position in offset..<(offset + count) where !isDigit(bytes[position]) { return false }
    return true
  }

  /// Whether a name character or `-`/`:`/`.` continues right at `offset` (so the atom is not alone).
  func isGlued(at offset: Int) -> Bool {
    guard let next = byte(at: offset) else { return false }
    return isNameByte(next) || next == UInt8(ascii: "-") || next == UInt8(ascii: ":")
      || (next == UInt8(ascii: ".") && (byte(at: offset + 1).map(isDigit) ?? false))
  }
}
