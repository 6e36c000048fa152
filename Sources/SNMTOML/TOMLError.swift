/// Why a TOML file was refused, and where: `supabase/config.toml:3:14: expected '=' after a key`.
///
/// ```swift
/// do { _ = try TOMLDocument(parsing: text, file: "supabase/config.toml") }
/// catch { print(error) }   // supabase/config.toml:3:14: expected '=' after a key
/// ```
package struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file as the user named it.
  package var file: String
  package var position: TOMLPosition
  /// Lowercase, no trailing period.
  package var message: String

  package init(file: String, at position: TOMLPosition, _ message: String) {
    self.file = file
    self.position = position
    self.message = message
  }

  /// `file:line:column: message`.
  package var description: String { "\(file):\(position.line):\(position.column): \(message)" }
}
