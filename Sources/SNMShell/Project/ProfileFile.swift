import Foundation
import SNMSupabase
import SNMWire

/// Named projects in `$XDG_CONFIG_HOME/snm/config.json` (else `~/.config/snm/config.json`).
///
/// ```json
/// {"profiles": {"prod": {"url": "https://abcd.supabase.co", "anon_key": "eyJ..."}}}
/// ```
/// The key may be named `anon_key`, `publishable_key`, `key`, `secret_key` or `service_role_key`
/// (either kind: `sb_publishable_...`/`sb_secret_...` or a legacy JWT). The service key for
/// `admin ...` and `as service` is `service_key` (else `secret_key` or `service_role_key`). The
/// file holds keys: keep it 0600 (a file others may read that holds a server key is refused,
/// ``exposedSecrets(in:path:)``).
public struct ProfileFile: Sendable {
  /// Where the file is.
  public let path: String

  /// `$XDG_CONFIG_HOME/snm/config.json`, else `~/.config/snm/config.json`.
  public static func defaultPath(
    environment: [String: String] = ProcessEnvironment.current
  ) -> String {
    XDGDirectory.config.snmPath(environment: environment) + "/config.json"
  }

  /// The project of profile `name`.
  /// - Throws: `UsageError` when the file is missing or malformed, or has no such profile, or
  ///   when another account may write in it or its folder: a profile planted there would send the
  ///   statements, the password typed at `login` and the keys to a server of theirs.
  public func selection(named name: String) throws(UsageError) -> ProjectSelection {
    for place in [(path as NSString).deletingLastPathComponent, path] {
      if let problem = FileIO.problem(ofPrivate: place) {
        throw UsageError(
          "refusing \(place): \(problem); a profile planted there would send your statements, "
            + "password and keys to another server. "
            + FileIO.advice(forPrivate: place, elsewhere: "XDG_CONFIG_HOME"))
      }
    }
    // A regular file only, opened without waiting: a FIFO or a folder there was said not to exist.
    let data: Data
    switch RegularFile.contents(path) {
    case .success(let bytes): data = bytes
    case .failure(let refusal) where refusal.isMissing:
      throw UsageError("no profile '\(name)': \(path) does not exist")
    case .failure(let refusal):
      throw UsageError("no profile '\(name)': cannot read \(path): \(refusal.reason)")
    }
    let parsed = try? JSONSerialization.jsonObject(with: data)
    guard let root = parsed as? [String: Any], let profiles = root["profiles"] as? [String: Any]
    else {
      throw UsageError(
        "\(path): expected {\"profiles\": {\"NAME\": {\"url\": ..., \"anon_key\": ...}}}")
    }
    if let refusal = Self.exposedSecrets(in: profiles, path: path) { throw refusal }
    guard let profile = profiles[name] as? [String: Any] else {
      let known = profiles.keys.sorted().joined(separator: ", ")
      let listing = known.isEmpty ? "" : " (it has: \(known))"
      throw UsageError("no profile '\(name)' in \(path)\(listing)")
    }
    let names = ["anon_key", "publishable_key", "key", "secret_key", "service_role_key"]
    guard let url = profile["url"] as? String,
      let (field, key) = names.lazy.compactMap({ field in
        (profile[field] as? String).map { (field, $0) }
      }).first
    else {
      throw UsageError(
        "profile '\(name)' in \(path) needs \"url\" and a key (\"publishable_key\" or \"anon_key\")"
      )
    }
    let service = ["service_key", "secret_key", "service_role_key"].lazy.compactMap { field in
      (profile[field] as? String).map { (field, $0) }
    }.first
    for (field, value) in [(field, key)] + (service.map { [$0] } ?? []) {
      let place = "profile '\(name)' in \(path): \"\(field)\""
      if let refusal = EnvironmentProject.controlRefusal(value, at: place) { throw refusal }
    }
    if let tail = ProjectSelection.servicePath(in: url) {
      throw UsageError(
        "profile '\(name)' in \(path): \"url\" ends in \(ProjectChoice.shown(tail)), which snm "
          + "adds itself: write the project URL (https://<ref>.supabase.co)")
    }
    if ["anon_key", "publishable_key"].contains(field),
      let refusal = EnvironmentProject.serverKeyRefusal(
        key, at: "profile '\(name)' in \(path): \"\(field)\"",
        advice: "write the publishable (or anon) key there, or name it \"secret_key\" to run as "
          + "service_role on purpose")
    {
      throw refusal
    }
    if let (field, key) = service,
      let refusal = EnvironmentProject.clientKeyRefusal(
        key, at: "profile '\(name)' in \(path): \"\(field)\"",
        advice: "write the secret (or service_role) key there")
    {
      throw refusal
    }
    return try ProjectSelection(url: url, key: key, name: name, serviceKey: service?.1)
  }

  /// The fields that hold a server key whatever it looks like.
  static let serverKeyFields = ["service_key", "secret_key", "service_role_key"]

  /// The refusal of a file at `path` that holds a server key (in any of its `profiles`) and that
  /// other accounts may read (a group or others read bit), as psql ignores a `.pgpass` and ssh a
  /// private key that others may read; nil when it holds none or is closed to them. A server key
  /// bypasses row-level security: whoever read it may read and change every row. No key is said,
  /// only where each is (profile and field).
  static func exposedSecrets(in profiles: [String: Any], path: String) -> UsageError? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & 0o044 != 0 else { return nil }
    var places: [String] = []
    for (name, value) in profiles.sorted(by: { $0.key < $1.key }) {
      guard let profile = value as? [String: Any] else { continue }
      for (field, key) in profile.sorted(by: { $0.key < $1.key }) {
        guard let key = key as? String, !key.isEmpty else { continue }
        if serverKeyFields.contains(field) || SupabaseAPIKey(key).role == "service_role" {
          places.append("profile '\(ProjectChoice.shown(name))' \"\(VisibleText.escaped(field))\"")
        }
      }
    }
    guard !places.isEmpty else { return nil }
    let mode = String(info.st_mode & 0o777, radix: 8)
    let shownPlaces =
      places.count <= 3
      ? places.joined(separator: ", ")
      : places.prefix(3).joined(separator: ", ") + " and \(places.count - 3) more"
    return UsageError(
      "refusing \(path): it holds a server key (\(shownPlaces)), which bypasses row-level "
        + "security, and other accounts may read it (mode \(mode)). Make it yours alone: chmod "
        + "600 \(path); if another account may have read it, roll the key (the project's API "
        + "keys)")
  }
}
