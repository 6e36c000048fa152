import Foundation
import SNMTOML

/// The `[functions.<name>]` tables of `supabase/config.toml`: `enabled`, `verify_jwt`,
/// `import_map`, `entrypoint` (paths relative to the `supabase/` folder, as the Supabase CLI
/// reads them), read with the project's TOML reader.
///
/// ```swift
/// let config = try FunctionsConfig(text: "[functions.hello]\nverify_jwt = false\n", file: "config.toml")
/// config.entries["hello"]?.verifyJWT   // false
/// ```
/// Throws `TOMLError` (`file:line:column: message`) for a file it cannot read or a key of a
/// function's table of the wrong type.
package struct FunctionsConfig: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var enabled: Bool?
    package var verifyJWT: Bool?
    package var importMap: String?
    package var entrypoint: String?
  }

  package var entries: [String: Entry] = [:]

  package init() {}

  package init(text: String, file: String) throws(TOMLError) {
    let document = try TOMLDocument(parsing: text, file: file)
    guard let functions = document.root["functions"] else { return }
    guard let tables = functions.table else {
      throw document.error(at: functions.position, "functions must be a table of functions")
    }
    for (name, value) in tables.entries {
      guard let table = value.table else {
        throw document.error(at: value.position, "functions.\(name) must be a table")
      }
      var entry = Entry()
      for (key, value) in table.entries {
        func wrong(_ kind: String) -> TOMLError {
          document.error(
            at: value.position, "functions.\(name).\(key) must be \(kind), not \(value.typeName)")
        }
        switch key {
        case "enabled":
          guard let flag = value.boolean else { throw wrong("a boolean") }
          entry.enabled = flag
        case "verify_jwt":
          guard let flag = value.boolean else { throw wrong("a boolean") }
          entry.verifyJWT = flag
        case "import_map":
          guard let path = value.string else { throw wrong("a string") }
          entry.importMap = path
        case "entrypoint":
          guard let path = value.string else { throw wrong("a string") }
          entry.entrypoint = path
        default:
          break
        }
      }
      entries[name] = entry
    }
  }

  /// Reads `path`; no file is no entries.
  package static func load(_ path: String?) throws(TOMLError) -> FunctionsConfig {
    guard let path, let data = FileManager.default.contents(atPath: path) else {
      return FunctionsConfig()
    }
    return try FunctionsConfig(
      text: String(decoding: data, as: UTF8.self), file: "supabase/config.toml")
  }
}
