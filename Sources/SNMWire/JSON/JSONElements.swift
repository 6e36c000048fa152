import Foundation

/// The elements of a top-level JSON array, one at a time: parsed from the bytes by a
/// ``JSONArrayCursor``, or taken from a tree already built. See ``JSONDocument/withElements(_:)``.
///
/// ```swift
/// try document.withElements { elements in
///   while let row = try elements.next() { ... }
/// }
/// ```
public struct JSONElements {
  private let tree: [JSONValue]
  private var index = 0
  /// Mutated in place through the optional, so the parser's buffers are never copied.
  private var cursor: JSONArrayCursor?
  /// Holds the compact text of nested values for ``nextRow(_:)`` from a tree.
  private var scratch = JSONWriter(indent: nil)
  /// Holds an element's text for ``appendNextText(to:indent:depth:)``, and that of nested values
  /// for ``nextRow(_:)``, from bytes (made on first use).
  private var text: JSONTextBuffer?
  /// The start of the bytes when they are a file's pages mapped into memory (a spilled answer,
  /// ``JSONDocument/fileBacked``): ``releasePassedPages()`` gives back those the walk passed.
  private var mapping: UnsafeRawPointer?
  /// How many bytes from `mapping` were given back.
  private var released = 0

  init(_ elements: [JSONValue]) {
    tree = elements
  }

  init(_ cursor: JSONArrayCursor) {
    tree = []
    self.cursor = cursor
  }

  /// Where a walk over an array's bytes stands: past its first ``count`` elements. A walk over
  /// the same bytes grown longer (a body still arriving) goes on from here as one walk over the
  /// whole would have (``withElements(of:from:_:)``, ``JSONDocument/withElements(from:_:)``).
  public struct Position: Sendable, Equatable {
    /// The elements read before this position.
    public let count: Int
    /// The byte just past the last of them (or the start of the bytes).
    let offset: Int
    /// Whether the array's `[` has been read.
    let started: Bool

    /// Before the array.
    public static let start = Position(count: 0, offset: 0, started: false)
  }

  /// A walk over a file's mapped pages that starts at `base` (page-aligned, as `mmap` returns
  /// it): ``releasePassedPages()`` gives back what it passed.
  mutating func releasing(mappedAt base: UnsafeRawPointer?) {
    guard let base, Int(bitPattern: base) % Self.pageSize == 0 else { return }
    mapping = base
  }

  /// The system's page size.
  static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)

  /// Gives back the memory of the pages this walk has passed when its bytes are a file's pages
  /// (they stay in the file, read again from there if asked), once they make 256 KiB; nothing
  /// for any other bytes. A printer of rows calls it as it goes, so that printing an answer of
  /// any size from its file holds a few hundred kilobytes of it.
  public mutating func releasePassedPages() {
    guard let mapping, let offset = cursor?.position?.offset else { return }
    let end = offset / Self.pageSize * Self.pageSize
    guard end - released >= 256 << 10 else { return }
    _ = madvise(
      UnsafeMutableRawPointer(mutating: mapping + released), end - released, MADV_DONTNEED)
    released = end
  }

  /// Where this walk stands, nil once it has passed the end or failed, or when it walks a tree.
  public var position: Position? { cursor?.position }

  /// Runs `body` with a walk over the array in `bytes` that starts at `position`, taken on these
  /// bytes or on a start of them.
  ///
  /// - Throws: what `body` throws (``JSONParseError`` where the bytes stop being an array).
  public static func withElements<Result>(
    of bytes: UnsafeBufferPointer<UInt8>, from position: Position,
    _ body: (inout JSONElements) throws -> Result
  ) rethrows -> Result {
    var walk = JSONElements(JSONArrayCursor(bytes, from: position))
    return try body(&walk)
  }

  /// The member names of the next element, an object, without building its values; nil after
  /// the last element, and for an element of a tree that is not an object.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  public mutating func nextRowKeys() throws(JSONParseError) -> [String]? {
    if cursor != nil { return try cursor?.nextRowKeys() }
    guard index < tree.count else { return nil }
    index += 1
    return tree[index - 1].objectValue?.keys
  }

  /// The next element, or nil after the last.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  public mutating func next() throws(JSONParseError) -> JSONValue? {
    if cursor != nil { return try cursor?.next() }
    guard index < tree.count else { return nil }
    index += 1
    return tree[index - 1]
  }

  /// The next element written as JSON text, compact (`indent` nil, as ``JSONValue/serialized()``)
  /// or indented as if `depth` levels deep (as ``JSONValue/prettyPrintedBytes(indent:depth:)``);
  /// nil after the last. From bytes, the text is written without building the value.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  public mutating func nextText(indent: Int?, depth: Int = 0) throws(JSONParseError) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(256)
    guard try appendNextText(to: &output, indent: indent, depth: depth) else { return nil }
    return output
  }

  /// Appends the next element's text, as ``nextText(indent:depth:)`` gives it, to `output`;
  /// false after the last. When it throws, `output` is as it was.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  public mutating func appendNextText(to output: inout [UInt8], indent: Int?, depth: Int = 0)
    throws(JSONParseError) -> Bool
  {
    let text = self.text ?? JSONTextBuffer()
    self.text = text
    text.count = 0
    guard try appendNextText(into: text, indent: indent, depth: depth) else { return false }
    output.append(contentsOf: text.written)
    return true
  }

  /// Writes the next element's text, as ``nextText(indent:depth:)`` gives it, into `output`
  /// after what it holds (an output chunk: from bytes, the row is written in place, not into a
  /// buffer of its own and copied); false after the last. When it throws, `output` holds what it
  /// held.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON array.
  package mutating func appendNextText(into output: JSONTextBuffer, indent: Int?, depth: Int = 0)
    throws(JSONParseError) -> Bool
  {
    let indent = indent.map { max(0, $0) }
    if cursor != nil {
      let mark = output.count
      do {
        guard try cursor?.copyNext(into: output, indent: indent, depth: depth) == true else {
          output.count = mark
          return false
        }
      } catch {
        output.count = mark
        throw error
      }
      return true
    }
    guard index < tree.count else { return false }
    index += 1
    var writer = JSONWriter(indent: indent, reserving: 0)
    writer.write(tree[index - 1], depth: depth)
    writer.output.withUnsafeBufferPointer { output.append($0) }
    return true
  }

  /// Hands each member value of the next element (an object: a row) to `visit`, in order, as
  /// its kind and text (valid only during the call); false after the last element. From bytes,
  /// no value is built. An element that is not an object gives no fields from a tree.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  public mutating func nextRow(_ visit: (JSONFieldKind, UnsafeBufferPointer<UInt8>) -> Void)
    throws(JSONParseError) -> Bool
  {
    if cursor != nil {
      let text = self.text ?? JSONTextBuffer()
      self.text = text
      return try cursor?.visitNextRow(scratch: text, visit) == true
    }
    guard index < tree.count else { return false }
    index += 1
    guard case .object(let row) = tree[index - 1] else { return true }
    for value in row.values {
      switch value {
      case .null: visit(.null, UnsafeBufferPointer(start: nil, count: 0))
      case .bool(let flag): Self.visitText(flag ? "true" : "false", .bool, visit)
      case .number(let number): Self.visitText(number.text, .number, visit)
      case .string(let text): Self.visitText(text, .string, visit)
      case .array, .object:
        scratch.output.removeAll(keepingCapacity: true)
        scratch.write(value, depth: 0)
        scratch.output.withUnsafeBufferPointer { visit(.nested, $0) }
      }
    }
    return true
  }

  /// Writes the next element, an object (a row), into `output` after what it holds as one csv
  /// record without its line end: each member value as ``nextRow(_:)`` hands it over, written by
  /// ``CSVField/write(_:_:into:)``; false after the last element. From bytes, in one pass
  /// straight into `output` (``CSVRowWriter/writeMembers(_:into:nested:)``).
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being an array of objects.
  package mutating func writeNextRowAsCSV(into output: JSONTextBuffer) throws(JSONParseError)
    -> Bool
  {
    if cursor != nil {
      let text = self.text ?? JSONTextBuffer()
      self.text = text
      return try cursor?.writeNextRowAsCSV(into: output, nested: text) == true
    }
    var first = true
    return try nextRow { kind, text in
      if !first { output.append(UInt8(ascii: ",")) }
      first = false
      CSVField.write(kind, text, into: output)
    }
  }

  private static func visitText(
    _ text: String, _ kind: JSONFieldKind,
    _ visit: (JSONFieldKind, UnsafeBufferPointer<UInt8>) -> Void
  ) {
    var text = text
    text.withUTF8 { visit(kind, $0) }
  }
}
