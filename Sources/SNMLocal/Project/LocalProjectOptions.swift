import SNMLocalAuth

/// Where a local project lives and how it runs (`--dir --port --migrations --jwt-expiry`
/// `--refresh-reuse-interval --auth-rate-limit`).
///
/// ```swift
/// var options = LocalProjectOptions()          // default dir, port 54321
/// options.dataDir = "/tmp/p"; options.port = 54330
/// ```
public struct LocalProjectOptions: Sendable, Equatable {
  /// The project's folder: keys, pid and log files, and (when Postgres may own it) the cluster.
  public var dataDir: String
  public var port: Int
  /// A folder of `*.sql` files to apply in name order instead of the demo schema.
  public var migrationsDir: String?
  /// `--project DIR`: the folder holding `supabase/` (else the current folder when it holds one).
  public var projectDir: String?
  /// Access-token lifetime in seconds.
  public var jwtExpiry: Int
  /// Seconds a just-rotated refresh token still returns the current session (GoTrue's default 10).
  public var refreshReuseInterval: Int
  /// How user tokens are signed: `HS256` with the JWT secret, or `ES256`/`RS256` with a signing
  /// key of the project's (served as JWKS), as hosted projects with signing keys do.
  public var jwtAlgorithm = "HS256"
  /// `--signing-keys FILE`: the project's own JWK set (its first ES256/RS256 key that may sign
  /// signs user tokens, under its own kid); "" is `--no-signing-keys`.
  public var signingKeysFile: String?
  /// `NAME=N` changes to the Auth rate limits (`--auth-rate-limit`), applied in order over the
  /// project's remembered ones.
  public var authRateLimitChanges: [String] = []
  /// The Auth switches given on the command line (`--confirm-email`, `--no-signup`,
  /// `--no-anonymous`, `--secure-password-change` and their opposites), applied over the
  /// project's remembered ones.
  public var authSwitches = AuthSwitches.Changes()
  /// `--sms-test-otp PHONE=CODE` changes in order; an empty one is `--no-sms-test-otp`.
  public var smsTestOTPChanges: [String] = []
  /// The most one Storage object may hold, in bytes (`--file-size-limit`; the Supabase CLI's
  /// default, 50 MiB). A bucket's own limit may only be lower.
  public var storageFileSizeLimit: Int64 = 50 * 1024 * 1024

  public init(
    dataDir: String = LocalProjectOptions.defaultDataDir(), port: Int = 54321,
    migrationsDir: String? = nil, jwtExpiry: Int = 3600, refreshReuseInterval: Int = 10
  ) {
    self.dataDir = dataDir
    self.port = port
    self.migrationsDir = migrationsDir
    self.jwtExpiry = jwtExpiry
    self.refreshReuseInterval = refreshReuseInterval
  }
}

extension LocalProjectOptions {
  /// `PHONE=CODE` of `--sms-test-otp` as GoTrue keeps it: the number's digits (no `+`, no
  /// spaces; E.164, 2 to 15 of them) and a code of 6 to 10 digits; nil when it is not that.
  public static func testOTP(_ text: String) -> (phone: String, code: String)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    var phone = String(text[..<equals]).replacingOccurrences(of: " ", with: "")
    if phone.hasPrefix("+") { phone.removeFirst() }
    let code = String(text[text.index(after: equals)...])
    let isDigits = { (value: String) in value.allSatisfy { $0.isASCII && $0.isNumber } }
    guard (2...15).contains(phone.count), !phone.hasPrefix("0"), isDigits(phone),
      (6...10).contains(code.count), isDigits(code)
    else { return nil }
    return (phone, code)
  }

  /// A size as `--file-size-limit` takes it: bytes, or a number with `B`, `KB`, `MB`, `GB`
  /// (decimal) or `KiB`, `MiB`, `GiB` (binary), as the Supabase CLI's `file_size_limit`.
  public static func parseSize(_ text: String) -> Int64? {
    if let bytes = Int64(text) { return bytes }
    let units: [(String, Double)] = [
      ("KIB", 1024), ("MIB", 1_048_576), ("GIB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6),
      ("GB", 1e9),
      ("B", 1),
    ]
    let upper = text.uppercased()
    for (unit, factor) in units where upper.hasSuffix(unit) {
      guard let value = Double(upper.dropLast(unit.count)), value >= 0 else { return nil }
      return Int64((value * factor).rounded())
    }
    return nil
  }
}
