/// `${uuid}`, `${now}`, `${now + 1h}`, `${random 8}` inside strings (AST/Generator.swift).
extension Parser {
  /// The generator written at `cursor` (a `$` followed by `{`) and the offset of its `}`, or nil
  /// when the braces hold something else (a variable). Throws for a generator written wrongly
  /// (`${random}`, `${now + 1 hour}`).
  func generator(at cursor: Int, end: Int) throws(ParseFailure) -> (Generator, Int)? {
    let bytes = source.bytes
    var close = cursor + 2
    while close < end && bytes[close] != UInt8(ascii: "}") && bytes[close] != 10 { close += 1 }
    guard close < end, bytes[close] == UInt8(ascii: "}") else { return nil }
    let inner = String(decoding: bytes[(cursor + 2)..<close], as: UTF8.self)
    if let generator = Generator.parse(inner) { return (generator, close) }
    guard Generator.looksLikeOne(inner) else { return nil }
    throw failure(
      .invalidGenerator(inner), at: SourceRange(start: cursor, end: close + 1),
      help: "generators are ${uuid}, ${now}, ${now + 1h} (ms, s, m, h, d), ${random 8}")
  }
}
