/// The PGRST100 for a filter whose operator none of PostgREST's alternatives read, worded as
/// Parsec words it for `pOpExpr` (QueryParams.hs): every alternative is tried from the same
/// place (`not.` first when it was not there, then `in`, `is`, `isdistinct`, the text searches,
/// the simple and the quantified operators, each with its `.`), the error is the one that got
/// furthest, its `unexpected` the first alternative's there, and what the operators expect is
/// their label, "operator (eq, gt, ...)":
///
///     id=noop.0     column 1: unexpected "o" expecting "not" or operator (eq, gt, ...)
///     id=eq().x     column 4: unexpected ")" expecting operator (eq, gt, ...)
///     id=is().x     column 3: unexpected "(" expecting operator (eq, gt, ...)
///     id=nothing.x  column 4: unexpected "h" expecting delimiter (.)
struct OperatorFailure {
  let cursor: ParseCursor
  /// Where the operator starts, after any `not.`.
  let start: Int
  /// Where `not.` was looked for, nil when it was read.
  let notStart: Int?

  static let label = "operator (eq, gt, ...)"
  static let textSearch = ["fts", "plfts", "phfts", "wfts"]
  static let simple = ["neq", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj"]
  static let quantified = ["eq", "gte", "gt", "lte", "lt", "like", "ilike", "match", "imatch"]

  /// Where an alternative failed, and the byte it did not expect there (nil: the end).
  struct Miss {
    var position: Int
    var unexpected: Int?
  }

  var error: RESTError {
    var misses: [Miss] = []
    for word in ["in", "is", "isdistinct"] { misses.append(delimited(word, at: start)) }
    misses.append(textSearchMiss())
    misses.append(operatorMiss(Self.simple, quantifier: false))
    misses.append(operatorMiss(Self.quantified, quantifier: true))
    var furthest = misses[0]
    for miss in misses.dropFirst() where miss.position > furthest.position { furthest = miss }
    var expecting = [Self.label]
    if let notStart {
      let not = delimited("not", at: notStart)
      if not.position > furthest.position {
        return failure(not, expecting: "delimiter (.)")
      }
      if not.position == furthest.position {
        furthest = not
        expecting.insert(not.position == notStart ? "\"not\"" : "delimiter (.)", at: 0)
      }
    }
    return failure(furthest, expecting: expecting.joined(separator: " or "))
  }

  private func failure(_ miss: Miss, expecting: String) -> RESTError {
    var at = cursor
    at.position = miss.unexpected ?? cursor.bytes.count
    return at.failure(
      details: "\(at.unexpectedDescription) expecting \(expecting)", at: miss.position)
  }

  /// Parsec's `string word`: nil when the text at `index` starts with it, else where it fails
  /// (at `index`, whichever byte differs).
  private func literal(_ word: String, at index: Int) -> Miss? {
    var offset = index
    for byte in word.utf8 {
      guard offset < cursor.bytes.count else { return Miss(position: index, unexpected: nil) }
      if cursor.bytes[offset] != byte { return Miss(position: index, unexpected: offset) }
      offset += 1
    }
    return nil
  }

  /// `char byte` at `index`: nil when it is there.
  private func character(_ byte: UInt8, at index: Int) -> Miss? {
    guard index < cursor.bytes.count else { return Miss(position: index, unexpected: nil) }
    return cursor.bytes[index] == byte ? nil : Miss(position: index, unexpected: index)
  }

  /// `word` and its `.` (these only fail here: the parser took every one that is there).
  private func delimited(_ word: String, at index: Int) -> Miss {
    literal(word, at: index) ?? character(UInt8(ascii: "."), at: index + word.utf8.count)
      ?? Miss(position: index, unexpected: index)
  }

  /// The first of `words` the text starts with, and its length.
  private func firstWord(_ words: [String]) -> (miss: Miss?, end: Int) {
    for word in words where literal(word, at: start) == nil {
      return (nil, start + word.utf8.count)
    }
    return (literal(words[0], at: start), start)
  }

  /// `fts`, `plfts`, `phfts` or `wfts`, an optional `(language)`, then `.`.
  private func textSearchMiss() -> Miss {
    let (miss, end) = firstWord(Self.textSearch)
    if let miss { return miss }
    guard end < cursor.bytes.count, cursor.bytes[end] == UInt8(ascii: "(") else {
      return character(UInt8(ascii: "."), at: end) ?? Miss(position: end, unexpected: end)
    }
    var index = end + 1
    while let scalar = scalar(at: index), ParseCursor.isIdentifierScalar(scalar) {
      index += scalarLength(at: index)
    }
    let language =
      index == end + 1
      ? Miss(position: index, unexpected: index < cursor.bytes.count ? index : nil)
      : character(UInt8(ascii: ")"), at: index)
    guard let language else {
      return character(UInt8(ascii: "."), at: index + 1) ?? Miss(position: end, unexpected: end)
    }
    return language
  }

  /// One of `words`, for the quantified ones an optional `(any)` or `(all)`, then `.`.
  private func operatorMiss(_ words: [String], quantifier: Bool) -> Miss {
    let (miss, end) = firstWord(words)
    if let miss { return miss }
    let delimiter = character(UInt8(ascii: "."), at: end) ?? Miss(position: end, unexpected: end)
    guard quantifier, end < cursor.bytes.count, cursor.bytes[end] == UInt8(ascii: "(") else {
      return delimiter
    }
    let inner = end + 1
    if literal("any", at: inner) != nil && literal("all", at: inner) != nil {
      return literal("any", at: inner) ?? delimiter
    }
    if let close = character(UInt8(ascii: ")"), at: inner + 3) { return close }
    return character(UInt8(ascii: "."), at: inner + 4) ?? delimiter
  }

  private func scalar(at index: Int) -> Unicode.Scalar? {
    var at = cursor
    at.position = index
    return at.current
  }

  private func scalarLength(at index: Int) -> Int {
    let lead = cursor.bytes[index]
    return lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
  }
}
