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
}
