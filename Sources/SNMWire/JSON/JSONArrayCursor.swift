import Foundation

/// Walks the elements of a JSON array one at a time over its raw bytes, so that a 100,000-row
/// body can be printed without ever holding more than one row.
///
/// ```swift
/// try JSONArrayCursor.withCursor(over: response.body) { cursor in
///   while let row = try cursor.next() { print(row.serialized()) }
/// }
/// ```
///
/// Each element is parsed by the same parser as ``JSONValue/init(parsing:)-(Data)``, and a body
/// that is not valid JSON throws the same ``JSONParseError`` (same byte, same reason) that parsing
/// it whole would, once the cursor reaches the fault. A body that is not an array throws when the
/// first element is asked for. Consecutive object elements with the same keys share one key array,
/// as they do in a parsed tree.
public struct JSONArrayCursor {
  private var parser: JSONParser
  private var state = State.start
  /// How many elements `next()` has returned.
  public private(set) var count = 0
  /// The first row's keys, once `copyNext` has read them (``JSONRowWriter/RowKeys``): later rows
  /// with the same keys are written a member at a time.
  private var rowKeys: JSONRowWriter.RowKeys?
  /// Whether `rowKeys` was looked for.
  private var lookedForKeys = false

  private enum State {
    case start, inside, finished
  }

  /// A cursor over `bytes`, which must stay valid while it is used.
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    parser = JSONParser(bytes, baseDepth: 1, takesLoneSurrogates: true)
  }

  /// A cursor over `bytes` that goes on from `position`, taken by a cursor over the same bytes or
  /// a shorter start of them (a body still arriving): it reads what that cursor would have read
  /// next.
  init(_ bytes: UnsafeBufferPointer<UInt8>, from position: JSONElements.Position) {
    parser = JSONParser(bytes, baseDepth: 1, takesLoneSurrogates: true)
    parser.offset = position.offset
    state = position.started ? .inside : .start
    count = position.count
  }

  /// Where the cursor stands: after its `count` elements, or at the start. Nil once it has read
  /// past the last element or failed (there is nothing to go on from).
  var position: JSONElements.Position? {
    switch state {
    case .start: JSONElements.Position(count: count, offset: parser.offset, started: false)
    case .inside: JSONElements.Position(count: count, offset: parser.offset, started: true)
    case .finished: nil
    }
  }

  /// Runs `body` with a cursor over `data`'s elements.
  ///
  /// - Throws: what `body` throws (``JSONParseError`` from ``next()``).
  public static func withCursor<Result>(
    over data: Data, _ body: (inout JSONArrayCursor) throws -> Result
  ) rethrows -> Result {
    try data.withUnsafeBytes { raw in
      var cursor = JSONArrayCursor(raw.bindMemory(to: UInt8.self))
      return try body(&cursor)
    }
  }

  /// The next element, or nil after the last one (the bytes after the closing `]` are checked to
  /// be only whitespace first). After an error it returns nil.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  public mutating func next() throws(JSONParseError) -> JSONValue? {
    do {
      guard try moveToNextElement() else { return nil }
      let element = try parser.parseValue()
      count += 1
      return element
    } catch {
      state = .finished
      throw error
    }
  }

  /// Writes the next element as `writer` would write its parsed form, straight from the bytes
  /// (no value is built); false after the last one. For bytes a ``JSONDocument`` has validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  mutating func rewriteNext(into writer: inout JSONWriter, depth: Int) throws(JSONParseError)
    -> Bool
  {
    do {
      guard try moveToNextElement() else { return false }
      try parser.rewriteValue(into: &writer, depth: depth)
      count += 1
      return true
    } catch {
      state = .finished
      throw error
    }
  }

  /// Writes the next element into `text`, after what it holds, as ``rewriteNext(into:depth:)``
  /// writes it (compact with `indent` nil), copying runs of the bytes; false after the last one.
  /// For bytes a ``JSONDocument`` has validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  mutating func copyNext(into text: JSONTextBuffer, indent: Int?, depth: Int)
    throws(JSONParseError) -> Bool
  {
    do {
      guard try moveToNextElement() else { return false }
      if !lookedForKeys { learnRowKeys() }
      if let keys = rowKeys, keys.refused < 16 {
        if try JSONRowWriter.copyRow(&parser, keys: keys, into: text, indent: indent, depth: depth)
        {
          count += 1
          return true
        }
        keys.refused += 1
      }
      try JSONRowWriter.copyValue(&parser, into: text, indent: indent, depth: depth)
      count += 1
      return true
    } catch {
      state = .finished
      throw error
    }
  }

  /// Reads the keys of the element at the offset, when it is an object, into `rowKeys`.
  private mutating func learnRowKeys() {
    lookedForKeys = true
    var reader = JSONParser(parser.bytes, baseDepth: 1, takesLoneSurrogates: true)
    reader.offset = parser.offset
    reader.skipWhitespace()
    guard reader.offset < reader.bytes.count, reader.bytes[reader.offset] == UInt8(ascii: "{")
    else { return }
    var keys: [String] = []
    do {
      try reader.visitMembers(scratch: JSONTextBuffer(capacity: 256), key: { keys.append($0) }) {
        _, _ in
      }
    } catch {
      return
    }
    rowKeys = JSONRowWriter.RowKeys(keys)
  }

  /// Hands each member value of the next element, an object, to `visit` as text, straight from
  /// the bytes; false after the last element. For bytes a ``JSONDocument`` has validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  mutating func visitNextRow(
    scratch: JSONTextBuffer, _ visit: (JSONFieldKind, UnsafeBufferPointer<UInt8>) -> Void
  ) throws(JSONParseError) -> Bool {
    do {
      guard try moveToNextElement() else { return false }
      try parser.visitMembers(scratch: scratch, visit)
      count += 1
      return true
    } catch {
      state = .finished
      throw error
    }
  }

  /// Writes the next element, an object, into `output` as one csv record without its line end
  /// (``CSVRowWriter/writeMembers(_:into:nested:)``), straight from the bytes; false after the
  /// last element. For bytes a ``JSONDocument`` has validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  mutating func writeNextRowAsCSV(into output: JSONTextBuffer, nested: JSONTextBuffer)
    throws(JSONParseError) -> Bool
  {
    do {
      guard try moveToNextElement() else { return false }
      try CSVRowWriter.writeMembers(&parser, into: output, nested: nested)
      count += 1
      return true
    } catch {
      state = .finished
      throw error
    }
  }

  /// The member names of the next element, an object, read from the bytes without building its
  /// values (however deep they nest); nil after the last element.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  mutating func nextRowKeys() throws(JSONParseError) -> [String]? {
    do {
      guard try moveToNextElement() else { return nil }
      var keys: [String] = []
      try parser.visitMembers(scratch: JSONTextBuffer(capacity: 256), key: { keys.append($0) }) {
        _, _ in
      }
      count += 1
      return keys
    } catch {
      state = .finished
      throw error
    }
  }

  /// Steps over `[` or `,` to the start of the next element; false (having checked what follows
  /// the closing `]`) when there is none.
  private mutating func moveToNextElement() throws(JSONParseError) -> Bool {
    switch state {
    case .finished:
      return false
    case .start:
      parser.skipWhitespace()
      guard parser.offset < parser.bytes.count, parser.bytes[parser.offset] == UInt8(ascii: "[")
      else {
        // Not an array: the whole parse reports the fault, or the value is simply not an array.
        var whole = JSONParser(parser.bytes, takesLoneSurrogates: true)
        _ = try whole.parse()
        throw parser.expected("'[' to start an array")
      }
      parser.offset += 1
      parser.skipWhitespace()
      if parser.offset < parser.bytes.count && parser.bytes[parser.offset] == UInt8(ascii: "]") {
        parser.offset += 1
        try finish()
        return false
      }
      state = .inside
      return true
    case .inside:
      parser.skipWhitespace()
      let byte = parser.offset < parser.bytes.count ? parser.bytes[parser.offset] : 0
      if byte == UInt8(ascii: "]") {
        parser.offset += 1
        try finish()
        return false
      }
      guard byte == UInt8(ascii: ",") else {
        throw parser.expected("',' or ']' after an array element")
      }
      parser.offset += 1
      return true
    }
  }

  /// After the closing `]`: only whitespace may follow.
  private mutating func finish() throws(JSONParseError) {
    state = .finished
    parser.skipWhitespace()
    guard parser.offset == parser.bytes.count else {
      throw parser.expected("end of input after the JSON value")
    }
  }
}
