/// The statements of a source, parsed one at a time as they are iterated (statements with errors
/// are skipped: run this only over a source already checked).
///
/// ```swift
/// for statement in ParsedStatements(source) { ... }   // the parser holds one statement's tokens
/// ```
public struct ParsedStatements: Sequence, Sendable {
  public let source: Source

  public init(_ source: Source) {
    self.source = source
  }

  public func makeIterator() -> Iterator {
    Iterator(parser: Parser(source))
  }

  public struct Iterator: IteratorProtocol {
    var parser: Parser

    public mutating func next() -> Statement? {
      parser.nextStatement()
    }
  }
}
