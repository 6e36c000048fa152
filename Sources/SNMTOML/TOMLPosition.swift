/// Where something starts in a TOML file: 1-based line, and column in characters.
package struct TOMLPosition: Sendable, Equatable, Hashable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  /// `3:14`.
  package var description: String { "\(line):\(column)" }
}
