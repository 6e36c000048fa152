/// One field of a csv record, RFC 4180's rules as psql's csv writes them: a field with a comma, a
/// quote, CR or LF is quoted, its quotes doubled, and so is the field `\.` (alone on a line it
/// ends the data for `COPY ... FROM STDIN` and psql's `\copy`); the empty string is `""` where an
/// empty field would read as NULL.
///
/// ```swift
/// let out = JSONTextBuffer()
/// CSVField.write(bytes, emptyQuoted: true, into: out)   // Lee, Min -> "Lee, Min"
/// ```
package enum CSVField {
  /// Writes a JSON value of `kind`, as ``JSONElements/nextRow(_:)`` hands it over, as one field
  /// into `output`: NULL as an empty field, a number or a boolean as written, a string (the empty
  /// one as `""`) or a nested value's compact text quoted when it must be.
  package static func write(
    _ kind: JSONFieldKind, _ text: UnsafeBufferPointer<UInt8>, into output: JSONTextBuffer
  ) {
    switch kind {
    case .null: break
    case .number, .bool: output.append(text)
    case .string, .nested: write(text, emptyQuoted: kind == .string, into: output)
    }
  }

  /// Writes UTF-8 `text` as one field into `output`, after what it holds: quoted (quotes
  /// doubled) when it holds a comma, a quote, CR or LF, when it is `\.`, or when it is empty and
  /// `emptyQuoted`.
  package static func write(
    _ text: UnsafeBufferPointer<UInt8>, emptyQuoted: Bool, into output: JSONTextBuffer
  ) {
    if text.isEmpty {
      if emptyQuoted { writeEmpty(into: output) }
      return
    }
    guard needsQuotes(text) else {
      output.append(text)
      return
    }
    writeQuoted(text, into: output)
  }

  /// Writes `""`, the empty string's field.
  @inline(__always)
  static func writeEmpty(into output: JSONTextBuffer) {
    output.append(UInt8(ascii: "\""))
    output.append(UInt8(ascii: "\""))
  }

  /// Writes `text` quoted, each quote in it doubled: runs up to a quote are copied eight bytes
  /// at a time.
  static func writeQuoted(_ text: UnsafeBufferPointer<UInt8>, into output: JSONTextBuffer) {
    // At most every byte doubled, the two quotes, and eight to spare for the words stored.
    output.grow(toHold: output.count + 2 * text.count + 10)
    let base = output.base
    var out = output.count
    base[out] = UInt8(ascii: "\"")
    out += 1
    var index = 0
    while index < text.count {
      if index + 8 <= text.count,
        copyWord(text, &index, to: base, &out, { ByteWord.equal(UInt8(ascii: "\""), in: $0) })
      {
        continue
      }
      guard index < text.count else { break }
      let byte = text[index]
      base[out] = byte
      out += 1
      index += 1
      if byte == UInt8(ascii: "\"") {
        base[out] = byte
        out += 1
      }
    }
    base[out] = UInt8(ascii: "\"")
    output.count = out + 1
  }

  /// One step of a copy eight bytes at a time: stores the eight bytes at `index` (which must
  /// leave eight) at `base + out` (which must have room for them) and, when `marks` flags none of
  /// them, steps both past them (true); else steps both to the first byte it flags (false), whose
  /// caller decides what it is.
  @inline(__always)
  static func copyWord(
    _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, to base: UnsafeMutablePointer<UInt8>,
    _ out: inout Int, _ marks: (UInt64) -> UInt64
  ) -> Bool {
    let word = ByteWord.load(bytes, at: index)
    UnsafeMutableRawPointer(base + out).storeBytes(of: word, as: UInt64.self)
    let flagged = marks(word)
    let run = flagged == 0 ? 8 : flagged.trailingZeroBitCount >> 3
    index += run
    out += run
    return flagged == 0
  }

  /// Whether `bytes` hold a comma, a quote, CR or LF, or are `\.`: psql quotes that field, which
  /// on a line of its own (a one-column record) `COPY ... FROM STDIN` and `\copy` read as the
  /// end of the data, dropping every row after it.
  package static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bytes.count == 2 && bytes[0] == UInt8(ascii: "\\") && bytes[1] == UInt8(ascii: ".") {
      return true
    }
    var index = 0
    // Eight bytes at a time while none is a comma, a quote or below 0x0E (LF, CR and a few
    // others, which the bytes after settle).
    while index + 8 <= bytes.count {
      let word = ByteWord.load(bytes, at: index)
      let flagged =
        ByteWord.equal(UInt8(ascii: ","), in: word) | ByteWord.equal(UInt8(ascii: "\""), in: word)
        | ByteWord.below(0x0E, in: word)
      if flagged != 0 { break }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
        return true
      }
      index += 1
    }
    return false
  }
}
