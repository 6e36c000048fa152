/// The `Prefer` header as PostgREST 13 reads it (Preferences.hs): comma-separated `key=value`
/// items over one or several headers; when a preference repeats, the first one wins; unknown
/// ones are ignored unless `handling=strict` (then 400 PGRST122). `tx=commit|rollback` is
/// understood and never applied (db-tx-end = commit, as on Supabase); a `timezone=` that is not
/// one of the database's time zone names is ignored, and invalid under `handling=strict`.
///
///     let prefs = try Preferences.parse(["return=representation, count=exact"])
///     prefs.returnRepresentation   // true
struct Preferences: Sendable, Equatable {
  enum Return: String, Sendable {
    case minimal, representation, headersOnly = "headers-only"
  }

  enum Resolution: String, Sendable {
    case mergeDuplicates = "merge-duplicates", ignoreDuplicates = "ignore-duplicates"
  }

  var returning: Return?
  var count: CountMethod?
  var resolution: Resolution?
  /// `missing=default`: absent keys take the column default rather than NULL.
  var missingDefault: Bool?
  var strict: Bool?
  var maxAffected: Int?
  var timezone: String?
  /// Preferences that were not understood, as written.
  var invalid: [String] = []

  var returnRepresentation: Bool { returning == .representation }

  /// Parses every `Prefer` header value; throws PGRST122 for unknown preferences under
  /// `handling=strict`.
  /// `timezones`: the names a `timezone=` may give (nil: any).
  static func parse(
    _ headers: [String], timezones: Set<String>? = nil
  ) throws(RESTError) -> Preferences {
    var prefs = Preferences()
    var seen: Set<String> = []
    for header in headers {
      for item in header.split(separator: ",") {
        let token = item.trimmingCharacters(in: " \t")
        if token.isEmpty { continue }
        let parts = token.split(separator: "=", maxSplits: 1)
        let key = String(parts[0]).trimmingCharacters(in: " \t")
        let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: " \t") : ""
        guard seen.insert(key).inserted else { continue }
        if !prefs.apply(key: key, value: value, timezones: timezones) {
          prefs.invalid.append(token)
        }
      }
    }
    if prefs.strict == true && !prefs.invalid.isEmpty {
      throw RESTError.invalidPreferences(prefs.invalid)
    }
    return prefs
  }

  private mutating func apply(key: String, value: String, timezones: Set<String>?) -> Bool {
    switch key {
    case "return":
      guard let parsed = Return(rawValue: value) else { return false }
      returning = parsed
    case "count":
      guard let parsed = CountMethod(rawValue: value) else { return false }
      count = parsed
    case "resolution":
      guard let parsed = Resolution(rawValue: value) else { return false }
      resolution = parsed
    case "missing":
      guard value == "default" || value == "null" else { return false }
      missingDefault = value == "default"
    case "handling":
      guard value == "strict" || value == "lenient" else { return false }
      strict = value == "strict"
    case "max-affected":
      guard let number = Int(value), number >= 0 else { return false }
      maxAffected = number
    case "tx":
      // Understood, not applied: db-tx-end = commit ignores it, and it is not echoed.
      guard value == "commit" || value == "rollback" else { return false }
    case "timezone":
      guard !value.isEmpty, timezones?.contains(value) ?? true else { return false }
      timezone = value
    default:
      return false
    }
    return true
  }

  /// The `Preference-Applied` value: what this request honoured.
  func applied() -> String? {
    var items: [String] = []
    if let resolution { items.append("resolution=\(resolution.rawValue)") }
    if let missingDefault { items.append("missing=\(missingDefault ? "default" : "null")") }
    if let returning { items.append("return=\(returning.rawValue)") }
    if let count { items.append("count=\(count.rawValue)") }
    if let strict { items.append("handling=\(strict ? "strict" : "lenient")") }
    if let timezone { items.append("timezone=\(timezone)") }
    if strict == true, let maxAffected { items.append("max-affected=\(maxAffected)") }
    return items.isEmpty ? nil : items.joined(separator: ", ")
  }
}

extension StringProtocol {
  /// The text without leading and trailing characters of `set`.
  /// The kept scalars are copied at once (`Prefer`, `Content-Type` and profile headers pass here
  /// on every request).
  func trimmingCharacters(in set: String) -> String {
    let drop = set.unicodeScalars  // one or two scalars: a scan beats hashing
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, drop.contains(first) { scalars.removeFirst() }
    while let last = scalars.last, drop.contains(last) { scalars.removeLast() }
    return String(scalars)
  }
}
