/// The text of a statement or script, with the name it is reported under.
///
/// ```swift
/// let source = Source(text: "from user_info select *", fileName: "<command line>")
/// let script = Parser.parse(source)
/// ```
/// All positions in the language layer are UTF-8 byte offsets into `bytes`. A statement read from
/// the middle of an input (standard input, a chunk at a time) starts on `firstLine`, so its
/// locations name the input's real line without the text being padded to reach it.
public struct Source: Sendable {
  /// The name printed before `:line:col` (a path, `<command line>`, `<stdin>`).
  public let fileName: String
  /// The text's UTF-8 bytes, which the lexer reads. Always valid UTF-8.
  public let bytes: [UInt8]
  /// The line of its input the text starts on (1 for a whole file or `-c`).
  public let firstLine: Int

  /// The text as written (made from `bytes` at each read: the lexer, parser and checker read the
  /// bytes, and a file's text is not held twice).
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  public init(text: String, fileName: String = "<input>", firstLine: Int = 1) {
    self.fileName = fileName
    self.bytes = Array(text.utf8)
    self.firstLine = max(firstLine, 1)
  }

  /// The source of `bytes` when they are valid UTF-8, taken as they are (no String is made:
  /// checking them is all a file's text needs before the lexer reads it); nil when they are not.
  /// `UTF8Check.isValid` refuses exactly what `String(validating:as:)` refuses.
  public init?(validUTF8 bytes: [UInt8], fileName: String = "<input>", firstLine: Int = 1) {
    guard UTF8Check.isValid(bytes) else { return nil }
    self.fileName = fileName
    self.bytes = bytes
    self.firstLine = max(firstLine, 1)
  }

  /// The text covered by `range` (clamped to the source; invalid UTF-8 is repaired).
  public func text(of range: SourceRange) -> String {
    let start = min(max(range.start, 0), bytes.count)
    let end = min(max(range.end, start), bytes.count)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Whether the ASCII text at `range` is `word` (lowercase ASCII) in any letter case: a
  /// keyword-like word matched without making a String.
  public func spells(_ range: SourceRange, lowercased word: String) -> Bool {
    guard range.start >= 0, range.end <= bytes.count else { return false }
    var offset = range.start
    for expected in word.utf8 {
      guard offset < range.end else { return false }
      let byte = bytes[offset]
      if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected { return false }
      offset += 1
    }
    return offset == range.end
  }

  /// The byte range of the line holding `offset`, without its line break.
  public func lineRange(containing offset: Int) -> SourceRange {
    let offset = min(max(offset, 0), bytes.count)
    var start = offset
    while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var end = offset
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return SourceRange(start: start, end: max(end, start))
  }

  /// The 1-based line and column of `offset` in the input (columns count characters).
  public func location(of offset: Int) -> SourceLocation {
    let offset = min(max(offset, 0), bytes.count)
    var line = firstLine
    for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") { line += 1 }
    let lineStart = lineRange(containing: offset).start
    let prefix = text(of: SourceRange(start: lineStart, end: offset))
    return SourceLocation(line: line, column: prefix.count + 1)
  }
}
