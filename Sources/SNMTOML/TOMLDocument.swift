import Foundation

/// A TOML file read whole, strictly: the subset Supabase's `config.toml` uses (tables, dotted
/// keys, arrays of tables, strings with escapes, integers, booleans, arrays, inline tables,
/// comments). Anything else, floats and dates included, is an error with its line and column.
///
/// ```swift
/// let document = try TOMLDocument(parsing: text, file: "supabase/config.toml")
/// document.root["api"]?.table?["port"]?.integer      // 54321
/// ```
/// Throws `TOMLError` (`file:line:column: message`) at the first thing it cannot read.
package struct TOMLDocument: Sendable, Equatable {
  /// The file as the user named it, for messages.
  package var file: String
  package var root: TOMLTable

  package init(parsing text: String, file: String) throws(TOMLError) {
    try self.init(bytes: Array(text.utf8), file: file)
  }

  package init(bytes: [UInt8], file: String) throws(TOMLError) {
    self.file = file
    var parser = TOMLParser(bytes: bytes, file: file)
    root = try parser.parse()
  }

  /// Reads the file at `path`, named `file` in messages (the path when nil).
  ///
  /// - Throws: `TOMLError` at 1:1 when the file cannot be read.
  package init(contentsOf path: String, file: String? = nil) throws(TOMLError) {
    let name = file ?? path
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TOMLError(file: name, at: TOMLPosition(line: 1, column: 1), "cannot read the file")
    }
    try self.init(bytes: Array(data), file: name)
  }

  /// An error at `position` in this document.
  package func error(at position: TOMLPosition, _ message: String) -> TOMLError {
    TOMLError(file: file, at: position, message)
  }
}

extension TOMLDocument {
  /// A dotted key as TOML writes it (`auth.email`, `functions."my fn"`), control characters as
  /// escapes: for messages.
  package static func keyText(_ parts: [String]) -> String {
    TOMLBuilderTable.display(parts)
  }
}
