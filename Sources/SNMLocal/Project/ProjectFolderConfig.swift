import SNMLocalAuth
import SNMLocalFunctions
import SNMTOML

/// What a project folder's `supabase/config.toml` sets that the local project has, typed; every
/// field nil (or empty) when the file does not set it, so the project's own value stays.
///
/// ```swift
/// let config = try ProjectFolderConfig(folder: folder)     // reads supabase/config.toml
/// config.port          // [api] port
/// config.unsupported   // ["[studio]", "[auth] additional_redirect_urls", ...] with places
/// ```
/// Throws `LocalProjectError` (usage) with `file:line:column` when the file is not TOML or a
/// key has a value of the wrong type or range.
struct ProjectFolderConfig: Sendable, Equatable {
  /// A Storage bucket the project makes or updates at each start (`[storage.buckets.<name>]`).
  struct Bucket: Sendable, Equatable {
    var name: String
    var isPublic = false
    var fileSizeLimit: Int64?
    var allowedMimeTypes: [String]?
  }

  /// A key the local project does not act on, where the file gives it, and why.
  struct Unsupported: Sendable, Equatable {
    /// `[studio]` (the whole table) or `[auth] additional_redirect_urls`.
    var key: String
    var position: TOMLPosition
    /// What the project does instead, when the key asks for something else ("always on").
    var here: String?
  }

  var folder: ProjectFolder
  /// Whether the folder has a `config.toml` at all (without one, every default stays).
  var hasFile = false
  var projectID: String?
  var port: Int?
  var schemas: [String]?
  var extraSearchPath: [String]?
  var maxRows: Int?
  var migrationsEnabled = true
  var seedEnabled = true
  /// Seed files or patterns, relative to `supabase/` (the CLI's default `./seed.sql`).
  var seedPaths = ["./seed.sql"]
  var siteURL: String?
  var jwtExpiry: Int?
  var signingKeysPath: String?
  var refreshReuseInterval: Int?
  var minimumPasswordLength: Int?
  var authSwitches = AuthSwitches.Changes()
  /// Real providers' keys for the id_token grant (`[auth.external.apple] jwks`, `client_id`).
  var providerKeys: [String: ProviderKeys.Source] = [:]
  var rateLimits: [String: Int] = [:]
  /// `[realtime]` limits by Realtime's name (`max_concurrent_users`, ...).
  var realtimeLimits: [String: Int] = [:]
  /// `[auth.sms.test_otp]`: phone digits to code; nil when the file has no such table.
  var smsTestOTPs: [String: String]?
  var fileSizeLimit: Int64?
  var buckets: [Bucket] = []
  /// The Edge Functions' entries (`[functions.<name>]`), which the Functions service asks for
  /// again at each call (``functionEntries(folder:)``).
  var functions: [FunctionEntry] = []
  var unsupported: [Unsupported] = []

  init(folder: ProjectFolder) throws(LocalProjectError) {
    self.folder = folder
    guard ProjectFolder.isFile(folder.configFile) else { return }
    hasFile = true
    do throws(TOMLError) {
      let document = try TOMLDocument(
        contentsOf: folder.configFile, file: folder.configFileShown)
      var reader = ConfigReader(document)
      try read(&reader)
      for (key, position, isTable) in reader.unread() {
        unsupported.append(Unsupported(key: Self.shown(key, isTable: isTable), position: position))
      }
      for (key, position, here) in reader.differing {
        unsupported.append(
          Unsupported(key: Self.shown(key, isTable: false), position: position, here: here))
      }
      unsupported.sort { $0.position.line < $1.position.line }
    } catch {
      throw LocalProjectError(.usage, error.description)
    }
  }

  /// `[studio]` for a table, `[auth] additional_redirect_urls` for a key.
  static func shown(_ key: [String], isTable: Bool) -> String {
    isTable ? "[\(TOMLDocument.keyText(key))]" : ConfigReader.shown(key)
  }

  /// The lines `snm local start` prints about the file: the keys it leaves aside, once.
  var notes: [String] {
    guard !unsupported.isEmpty else { return [] }
    return ["snm local: \(folder.configFileShown): not supported by the local project, ignored:"]
      + unsupported.map { item in
        "  \(item.position.line): \(item.key)" + (item.here.map { " (here: \($0))" } ?? "")
      }
  }
}

extension ProjectFolderConfig {
  /// The `[functions.<name>]` entries of the folder's `config.toml` as it is now, for the
  /// Functions service (the one reader of the file; no file is no entries).
  ///
  /// - Throws: `LocalProjectError` naming the file, line and key the file gets wrong.
  static func functionEntries(folder: ProjectFolder) throws(LocalProjectError) -> [FunctionEntry] {
    try ProjectFolderConfig(folder: folder).functions
  }
}
