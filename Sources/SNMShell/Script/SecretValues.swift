import Foundation
import Synchronization

/// Values that script failures, `snm test` output and its reports never print: each password a
/// sign-in used (written, `$env.NAME`, a variable or typed) and the values of environment
/// variables whose names say they hold a secret (`KIM_PASSWORD`, `API_TOKEN`, `SNM_PW`, ...), so
/// `expect $pw == 'x'` reports `found: "********"`.
///
/// ```swift
/// let secrets = SecretValues(environment: ProcessInfo.processInfo.environment)
/// secrets.register(password)
/// secrets.mask("found: \"hunter2!\"")   // found: "********"
/// ```
/// Source text is masked by `SecretMask` (a password as written); this masks values however they
/// got there. Short values would hide ordinary words: a password shorter than 4 characters and an
/// environment value shorter than 6 are left alone.
final class SecretValues: Sendable {
  /// Words in an environment variable's name (upper-cased) that mark its value as a secret.
  static let secretWords = [
    "PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "TOKEN", "KEY", "CREDENTIAL",
  ]
  /// Whole `_`-separated parts of a name that do.
  static let secretParts: Set<Substring> = ["PW", "PASS"]

  private let values: Mutex<Set<String>>

  init(environment: [String: String]) {
    values = Mutex(
      Set(
        environment.compactMap { name, value in
          Self.namesASecret(name) && value.count >= 6 ? value : nil
        }))
  }

  /// Whether an environment variable called `name` holds a secret, by its name.
  static func namesASecret(_ name: String) -> Bool {
    let upper = name.uppercased()
    // A byte search: Foundation's contains (range(of:)) cost 2.6M instructions over an ordinary
    // environment at each start.
    let bytes = Array(upper.utf8)
    return secretWords.contains { word in
      let wanted = Array(word.utf8)
      guard wanted.count <= bytes.count else { return false }
      return (0...bytes.count - wanted.count).contains { start in
        bytes[start..<start + wanted.count].elementsEqual(wanted)
      }
    }
      || upper.split(separator: "_").contains { secretParts.contains($0) }
  }

  /// Adds a password a sign-in used.
  func register(_ password: String) {
    guard password.count >= 4 else { return }
    values.withLock { _ = $0.insert(password) }
  }

  /// `text` with each secret value in it replaced by `********` (longer values first).
  func mask(_ text: String) -> String {
    let secrets = values.withLock { $0 }.sorted { $0.count > $1.count }
    return secrets.reduce(text) { masked, secret in
      masked.contains(secret) ? masked.replacingOccurrences(of: secret, with: "********") : masked
    }
  }

  /// `failure` with every field masked.
  func mask(_ failure: ScriptFailure) -> ScriptFailure {
    var masked = failure
    masked.statement = mask(failure.statement)
    masked.message = mask(failure.message)
    masked.expected = failure.expected.map(mask)
    masked.found = failure.found.map(mask)
    masked.text = mask(failure.text)
    return masked
  }
}
