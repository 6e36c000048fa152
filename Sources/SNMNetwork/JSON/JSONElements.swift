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

  init(_ elements: [JSONValue]) {
    tree = elements
  }

  init(_ cursor: JSONArrayCursor) {
    tree = []
    self.cursor = cursor
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
    var writer = JSONWriter(indent: indent.map { max(0, $0) })
    if cursor != nil {
      guard try cursor?.rewriteNext(into: &writer, depth: depth) == true else { return nil }
      return writer.output
    }
    guard index < tree.count else { return nil }
    index += 1
    writer.write(tree[index - 1], depth: depth)
    return writer.output
  }
}
