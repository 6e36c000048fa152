import Foundation
import Synchronization

/// A JSON body kept as its bytes, checked up front and parsed into a ``JSONValue`` only when
/// someone asks for ``value`` (once; later calls share the tree).
///
/// ```swift
/// let document = try JSONDocument(validating: response.body)
/// document.shape.count                 // rows, without building them
/// try document.withElements { cursor in  // print a row at a time
///   while let row = try cursor.next() { ... }
/// }
/// document.value                       // the whole tree, parsed now
/// ```
///
/// A 33 MiB result takes about three times its size as a tree; printing it through
/// ``withElements(_:)`` holds one row at a time instead.
public final class JSONDocument: Sendable {
  /// The UTF-8 text (empty when the document was made from a value).
  public let bytes: Data
  /// The top-level type, element count and row uniformity.
  public let shape: JSONShape
  /// Whether ``bytes`` are a file's pages mapped into memory (an answer spilled to disk): a walk
  /// over the elements gives back the pages it passed (``JSONElements/releasePassedPages()``).
  public let fileBacked: Bool
  private let tree: Mutex<JSONValue?>
  /// ``firstRowKeys`` once read (outer nil: not yet): the printer and the completion both ask.
  private let rowKeys = Mutex<[String]??>(nil)

  /// Checks `data` without building it.
  ///
  /// - Throws: ``JSONParseError``, the same one ``JSONValue/init(parsing:)-(Data)`` throws.
  public init(validating data: Data) throws(JSONParseError) {
    let checked = data.withUnsafeBytes { raw -> (shape: JSONShape, keys: [String]?)? in
      var validator = JSONValidator(raw.bindMemory(to: UInt8.self))
      guard let shape = validator.validate() else { return nil }
      // Rows: their keys were read on the way (a small answer's table asks for them at once).
      return (shape, shape.uniformObjects ? validator.firstRowKeys() : nil)
    }
    bytes = data
    fileBacked = false
    guard let checked else {
      // Refused: the parser says why. (Should it accept after all, keep what it built.)
      let value = try JSONValue(parsingAnswer: data)
      shape = JSONShape(of: value)
      tree = Mutex(value)
      return
    }
    shape = checked.shape
    tree = Mutex(nil)
    if let keys = checked.keys { rowKeys.withLock { $0 = .some(keys) } }
  }

  /// A document for bytes already checked as they arrived (``JSONStreamValidator``), with the
  /// shape that check found: the same document `init(validating:)` makes, without a second pass.
  /// `fileBacked`: `data` is a file's pages mapped into memory (``fileBacked``).
  public init(checked data: Data, shape: JSONShape, fileBacked: Bool = false) {
    bytes = data
    self.shape = shape
    self.fileBacked = fileBacked
    tree = Mutex(nil)
  }

  /// A document for a value already built.
  public init(_ value: JSONValue) {
    bytes = Data()
    fileBacked = false
    shape = JSONShape(of: value)
    tree = Mutex(value)
  }

  /// The whole value, parsed on first use.
  public var value: JSONValue {
    tree.withLock { tree in
      if let tree { return tree }
      // The bytes were validated, so the parse cannot fail; null is only a guard.
      let parsed = (try? JSONValue(parsingAnswer: bytes)) ?? .null
      tree = parsed
      return parsed
    }
  }

  /// Whether ``value`` has been built (or the document was made from one).
  public var isParsed: Bool { tree.withLock { $0 != nil } }

  /// Runs `body` with a cursor over the elements of a top-level array, parsing one at a time
  /// from the bytes, or from the tree when it is already built.
  ///
  /// - Throws: what `body` throws; ``JSONParseError`` when the document is not an array.
  public func withElements<Result>(_ body: (inout JSONElements) throws -> Result) throws
    -> Result
  {
    if let tree = tree.withLock({ $0 }) {
      guard case .array(let elements) = tree else {
        throw JSONParseError(
          offset: 0, reason: .expected("'[' to start an array", found: tree.typeName))
      }
      var walk = JSONElements(elements)
      return try body(&walk)
    }
    return try bytes.withUnsafeBytes { raw in
      var walk = JSONElements(JSONArrayCursor(raw.bindMemory(to: UInt8.self)))
      if fileBacked { walk.releasing(mappedAt: raw.baseAddress) }
      return try body(&walk)
    }
  }

  /// Runs `body` with a cursor over the array's elements from the bytes, going on from
  /// `position` (taken on these bytes, or on a start of them as they arrived) instead of the
  /// first element.
  ///
  /// - Throws: what `body` throws; ``JSONParseError`` when the bytes are shorter than where
  ///   `position` stands (a document made from a value has none).
  public func withElements<Result>(
    from position: JSONElements.Position, _ body: (inout JSONElements) throws -> Result
  ) throws -> Result {
    guard position.offset <= bytes.count, !bytes.isEmpty else {
      throw JSONParseError(
        offset: bytes.count, reason: .expected("a JSON value", found: "end of input"))
    }
    return try bytes.withUnsafeBytes { raw in
      try JSONElements.withElements(of: raw.bindMemory(to: UInt8.self), from: position) {
        if fileBacked { $0.releasing(mappedAt: raw.baseAddress) }
        return try body(&$0)
      }
    }
  }

  /// The keys of the first row: the first element of an array when it is an object, or the
  /// object itself; nil otherwise. Parses one element, not the whole array.
  public var firstRowKeys: [String]? {
    if let known = rowKeys.withLock({ $0 }) { return known }
    let keys = readFirstRowKeys()
    rowKeys.withLock { $0 = .some(keys) }
    return keys
  }

  private func readFirstRowKeys() -> [String]? {
    switch shape.kind {
    case .object: return value.objectValue?.keys
    case .array where shape.count > 0:
      if isParsed { return value.arrayValue?.first?.objectValue?.keys }
      // Read without building the row: its values may nest as deep as the limit allows.
      return try? JSONArrayCursor.withCursor(over: bytes) { try $0.nextRowKeys() }
    default: return nil
    }
  }
}
