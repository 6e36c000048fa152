import Foundation

/// A value made when a string is filled in, so scripts make unique users and rows:
/// `${uuid}` (a random UUID), `${now}` (the time, ISO 8601 in UTC with milliseconds),
/// `${now + 1h}` / `${now - 30m}` (offset by a duration), `${random 8}` (8 random lowercase
/// letters and digits).
///
/// ```
/// from dog_profile insert {"name": "CI Dog ${random 6}", "owner": $me, "created_at": "${now}"}
/// signup email 'ci-${uuid}@example.com' password 'password123'
/// ```
public enum Generator: Sendable, Equatable {
  case uuid
  /// The time now plus this many milliseconds (negative: before).
  case now(offsetMilliseconds: Int)
  /// This many characters of `[a-z0-9]`.
  case random(length: Int)

  /// The generator spelled by the text between `${` and `}`, if any: `uuid`, `now`,
  /// `now + 1h`, `now - 500ms`, `random 8` (spaces optional around the sign).
  public static func parse(_ text: String) -> Generator? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed == "uuid" { return .uuid }
    if trimmed == "now" { return .now(offsetMilliseconds: 0) }
    if trimmed.hasPrefix("now") {
      let rest = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
      guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
      let amount = rest.dropFirst().trimmingCharacters(in: .whitespaces)
      guard let milliseconds = DurationValue.milliseconds(of: amount) else { return nil }
      return .now(offsetMilliseconds: sign == "+" ? milliseconds : -milliseconds)
    }
    if trimmed.hasPrefix("random") {
      let rest = trimmed.dropFirst(6)
      guard rest.first == " " else { return nil }
      let digits = rest.trimmingCharacters(in: .whitespaces)
      guard let length = Int(digits), length >= 1, length <= 256 else { return nil }
      return .random(length: length)
    }
    return nil
  }

  /// Whether `text` (between `${` and `}`) starts like a generator but is not one: `random`,
  /// `now + 1 hour`, `random 0`.
  public static func looksLikeOne(_ text: String) -> Bool {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("now"), let next = trimmed.dropFirst(3).first, !next.isLetter,
      next != "_", !next.isNumber, next != "."
    {
      return true
    }
    return trimmed.hasPrefix("random ") || trimmed == "random"
  }

  /// A new value.
  public func make(now: Date = Date()) -> String {
    switch self {
    case .uuid:
      return UUID().uuidString.lowercased()
    case .now(let offset):
      return Self.timestamp(now.addingTimeInterval(Double(offset) / 1000))
    case .random(let length):
      let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
      var generator = SystemRandomNumberGenerator()
      return String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
    }
  }

  /// `2026-12-01T17:05:09.123Z`.
  static func timestamp(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900,
      Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
      Int(parts.tm_sec), Int(milliseconds % 1000))
  }

  /// As written: `${now + 3600000ms}`.
  public var spelling: String {
    switch self {
    case .uuid: "${uuid}"
    case .now(let offset) where offset == 0: "${now}"
    case .now(let offset): "${now \(offset < 0 ? "-" : "+") \(abs(offset))ms}"
    case .random(let length): "${random \(length)}"
    }
  }
}
