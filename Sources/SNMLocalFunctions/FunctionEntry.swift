/// A function's entry in `supabase/config.toml` (`[functions.<name>]`: `enabled`, `verify_jwt`,
/// `import_map`, `entrypoint`; paths as the file gives them, relative to the `supabase/` folder
/// as the Supabase CLI reads them). The project folder's reader (SNMLocal's
/// `ProjectFolderConfig`) reads the file; the runner asks it again at each call
/// (``FunctionsSettings/entries``), so an entry edited while the project runs counts.
///
/// ```swift
/// let entry = FunctionEntry(name: "hello", verifyJWT: false)
/// entry.enabled   // true, as when the file does not say
/// ```
package struct FunctionEntry: Sendable, Equatable {
  package var name: String
  package var enabled = true
  package var verifyJWT = true
  package var importMap: String?
  package var entrypoint: String?

  package init(
    name: String, enabled: Bool = true, verifyJWT: Bool = true, importMap: String? = nil,
    entrypoint: String? = nil
  ) {
    self.name = name
    self.enabled = enabled
    self.verifyJWT = verifyJWT
    self.importMap = importMap
    self.entrypoint = entrypoint
  }

  /// Reads the entries of `config.toml` at the moment (throws when the file cannot be read:
  /// the message names the file, line and key).
  package typealias Reader = @Sendable () throws -> [FunctionEntry]
}
