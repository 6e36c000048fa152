import SNMNetwork
import SNMWire

/// The `json` and `ndjson` formats: the response as the server sent it, keys in order.
///
/// `json` prints the whole body indented; `ndjson` prints each element of an array (or the single
/// value) compactly on a line of its own, ready for `jq -c` or a log. At a terminal (`visible`)
/// the characters ``VisibleText`` shows as escapes are written as JSON's (`\u202e`, past U+FFFF a
/// surrogate pair): the same JSON value, and nothing a server sent hides or reorders a line;
/// to a pipe or a file the server's bytes stay as they came.
struct JSONRenderer {
  /// Whether to write one compact value per line.
  let lines: Bool
  /// Whether the text goes to a terminal (its hidden characters as JSON escapes).
  var visible = false

  /// Writes `value`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ value: JSONValue, to writer: OutputWriter) -> Bool {
    // A tree is walked like bytes are: the same code prints both.
    (try? render(JSONDocument(value), to: writer)) ?? true
  }

  /// Runs `write` on `writer`; when `visible`, on a writer in memory, then writes that text to
  /// `writer` with the characters ``VisibleText`` escapes as JSON escapes (what was written
  /// before a throw or a cancel too). Text outside JSON's strings is ASCII, so each is in one.
  static func writing<T>(
    to writer: OutputWriter, visible: Bool, _ write: (OutputWriter) throws -> T
  ) rethrows -> T {
    guard visible else { return try write(writer) }
    let text = OutputWriter()
    defer {
      writer.write(VisibleText.json(text.captured))
      writer.flush()
    }
    return try write(text)
  }

  /// Writes `document`, an array a row at a time (read from the bytes one by one when it has not
  /// been parsed), so that 100,000 rows never become one tree or one string. `held` is the text
  /// the check on arrival wrote of some of its rows (``ArrivingLines``): written in place of
  /// those rows when it was written in this format's layout and the document is the array they
  /// came from.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way; the held text's
  ///   spool's error when what it set aside cannot be read back.
  func render(_ document: JSONDocument, after held: ArrivingLines? = nil, to writer: OutputWriter)
    throws -> Bool
  {
    guard !visible else {
      return try Self.writing(to: writer, visible: true) {
        try JSONRenderer(lines: lines).render(document, after: held, to: $0)
      }
    }
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    if let held, let start = held.start, let end = held.end,
      held.layout == (lines ? .lines : .indented), document.shape.kind == .array,
      document.shape.count > end.count, !document.bytes.isEmpty
    {
      if !lines { out.append(UInt8(ascii: "[")) }
      var first = true
      let before = try document.withElements {
        try Self.writeElements(of: &$0, lines: lines, first: &first, limit: start.count, to: &out)
      }
      guard before else { return false }
      // The text set aside past what memory held, piece by piece (each ends at a row's end).
      if let spool = held.spool {
        var offset = 0
        for piece in spool.pieces {
          try out.append(count: piece) { room, done in
            try spool.read(into: room, at: offset + done)
          }
          offset += piece
          if Task.isCancelled { return false }
        }
      }
      out.append(block: held.text)
      let after = try document.withElements(from: end) {
        try Self.writeElements(of: &$0, lines: lines, first: &first, to: &out)
      }
      guard after else { return false }
      if !lines { Self.close(&out) }
      return true
    }
    guard document.shape.kind == .array, document.shape.count > 0 else {
      let value = document.value
      if lines {
        for element in value.arrayValue ?? [value] {
          out.append(bytes: element.serializedBytes())
          out.newline()
        }
      } else {
        out.append(bytes: value.prettyPrintedBytes())
        out.newline()
      }
      return true
    }
    if !lines { out.append(UInt8(ascii: "[")) }
    var first = true
    let finished = try document.withElements { elements in
      try Self.writeElements(of: &elements, lines: lines, first: &first, to: &out)
    }
    guard finished else { return false }
    if !lines { Self.close(&out) }
    return true
  }

  /// Ends json's array, after its last element.
  private static func close(_ out: inout RenderBuffer) {
    out.append("\n]")
    out.newline()
  }

  /// Writes the elements left in `elements` (at most `limit`): as ndjson, each on a line; as json,
  /// each on a line of its own indented by two spaces, after `,` or, before the `first`, after
  /// `opening` (nil: the caller wrote it). False when the task was cancelled half-way.
  static func writeElements(
    of elements: inout JSONElements, lines: Bool, first: inout Bool, opening: UInt8? = nil,
    limit: Int = .max, to out: inout RenderBuffer
  ) throws -> Bool {
    var index = 0
    // Each element is written from the bytes as its parsed form would be, without parsing it,
    // straight into the output chunk.
    while index < limit {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      // A spilled answer's pages behind the rows written are given back as it goes.
      if index & 15 == 15 { elements.releasePassedPages() }
      if lines {
        guard try elements.appendNextText(into: out.output, indent: nil) else { return true }
        out.newline()
      } else {
        // The separator and indentation go first; taken back when no element follows.
        let text = out.output
        let mark = text.count
        if let separator = first ? opening : UInt8(ascii: ",") { text.append(separator) }
        text.append(0x0A)
        text.append(UInt8(ascii: " "))
        text.append(UInt8(ascii: " "))
        let more: Bool
        do {
          more = try elements.appendNextText(into: text, indent: 2, depth: 1)
        } catch {
          text.count = mark
          throw error
        }
        guard more else {
          text.count = mark
          return true
        }
        first = false
        out.flushIfFull()
      }
      index += 1
    }
    return true
  }
}
