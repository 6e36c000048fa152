import SNMLocalAuth
import SNMLocalFunctions
import SNMLocalRealtime
import SNMTOML

extension ProjectFolderConfig {
  /// Reads every key the local project acts on; keys that ask for what it does anyway are
  /// marked read, keys that ask for something else are noted as differing.
  mutating func read(_ reader: inout ConfigReader) throws(TOMLError) {
    projectID = try reader.string(["project_id"])
    try readAPI(&reader)
    try readDatabase(&reader)
    try readAuth(&reader)
    try readStorage(&reader)
    try readFunctions(&reader)
    reader.fixed(["realtime", "enabled"], .boolean(true), here: "Realtime is always served")
    for name in RealtimeLimits.names {
      if let limit = try reader.integer(["realtime", name], in: 1...Int(Int32.max)) {
        realtimeLimits[name] = limit
      }
    }
  }

  mutating func readAPI(_ reader: inout ConfigReader) throws(TOMLError) {
    reader.fixed(["api", "enabled"], .boolean(true), here: "the REST API is always served")
    port = try reader.integer(["api", "port"], in: 1...65535)
    schemas = try reader.strings(["api", "schemas"])
    extraSearchPath = try reader.strings(["api", "extra_search_path"])
    maxRows = try reader.integer(["api", "max_rows"], in: 1...Int(Int32.max))
    reader.fixed(["api", "tls", "enabled"], .boolean(false), here: "plain HTTP on 127.0.0.1")
  }

  mutating func readDatabase(_ reader: inout ConfigReader) throws(TOMLError) {
    migrationsEnabled = try reader.boolean(["db", "migrations", "enabled"]) ?? true
    reader.fixed(
      ["db", "migrations", "schema_paths"], .array([]), here: "only supabase/migrations/*.sql")
    seedEnabled = try reader.boolean(["db", "seed", "enabled"]) ?? true
    if let paths = try reader.strings(["db", "seed", "sql_paths"]) { seedPaths = paths }
  }

  mutating func readAuth(_ reader: inout ConfigReader) throws(TOMLError) {
    reader.fixed(["auth", "enabled"], .boolean(true), here: "Auth is always served")
    siteURL = try reader.string(["auth", "site_url"])
    jwtExpiry = try reader.integer(["auth", "jwt_expiry"], in: 1...604_800)
    signingKeysPath = try reader.string(["auth", "signing_keys_path"]).map(folder.resolved)
    reader.fixed(
      ["auth", "enable_refresh_token_rotation"], .boolean(true),
      here: "refresh tokens always rotate")
    refreshReuseInterval = try reader.integer(
      ["auth", "refresh_token_reuse_interval"], in: 0...86_400)
    minimumPasswordLength = try reader.integer(["auth", "minimum_password_length"], in: 6...72)
    reader.fixed(["auth", "password_requirements"], .string(""), here: "no character classes")
    reader.fixed(["auth", "enable_manual_linking"], .boolean(false), here: "no manual linking")
    let switches: [([String], String)] = [
      (["auth", "enable_signup"], "signup"),
      (["auth", "enable_anonymous_sign_ins"], "anonymous"),
      (["auth", "email", "enable_confirmations"], "confirm_email"),
      (["auth", "email", "secure_password_change"], "secure_password_change"),
      (["auth", "sms", "enable_signup"], "phone_signup"),
      (["auth", "sms", "enable_confirmations"], "confirm_phone"),
      (["auth", "external", "apple", "enabled"], "apple"),
      (["auth", "external", "github", "enabled"], "github"),
      (["auth", "oauth_server", "enabled"], "oauth_server"),
    ]
    for (path, name) in switches {
      if let on = try reader.boolean(path) { authSwitches[name] = on }
    }
    try readProviderKeys(&reader)
    // Apple off asks for nothing; on, the test issuer stands in for Apple unless `jwks` names
    // Apple's keys, and the keys not read (its secret and the like) are noted as not supported.
    // GitHub the same: the test issuer stands in for it.
    for provider in ["apple", "github"] {
      if let table = try reader.table(["auth", "external", provider]),
        authSwitches[provider] != true
      {
        for (key, _) in table.entries { reader.markRead(["auth", "external", provider, key]) }
      }
    }
    // The OAuth server off asks for nothing; on, only its admin client routes are served (no
    // consent page: authorization_url_path is listed as not supported).
    if let table = try reader.table(["auth", "oauth_server"]) {
      if authSwitches["oauth_server"] == true {
        reader.fixed(
          ["auth", "oauth_server", "allow_dynamic_registration"], .boolean(false),
          here: "no dynamic client registration")
      } else {
        for (key, _) in table.entries { reader.markRead(["auth", "oauth_server", key]) }
      }
    }
    for name in AuthRateLimits.names {
      if let limit = try reader.integer(["auth", "rate_limit", name], in: 0...Int(Int32.max)) {
        rateLimits[name] = limit
      }
    }
    reader.fixed(
      ["auth", "email", "enable_signup"], .boolean(true),
      here: "e-mail sign-ups follow [auth] enable_signup")
    reader.fixed(["auth", "email", "double_confirm_changes"], .boolean(true), here: "always")
    reader.fixed(["auth", "email", "otp_expiry"], .integer(3600), here: "3600")
    reader.fixed(["auth", "sms", "max_frequency"], .string("5s"), here: "5s")
    reader.fixed(["auth", "mfa", "max_enrolled_factors"], .integer(10), here: "10")
    reader.fixed(["auth", "mfa", "totp", "enroll_enabled"], .boolean(true), here: "TOTP is on")
    reader.fixed(["auth", "mfa", "totp", "verify_enabled"], .boolean(true), here: "TOTP is on")
    reader.fixed(["auth", "mfa", "phone", "enroll_enabled"], .boolean(false), here: "no phone MFA")
    reader.fixed(["auth", "mfa", "phone", "verify_enabled"], .boolean(false), here: "no phone MFA")
    if let codes = try reader.table(["auth", "sms", "test_otp"]) {
      var otps: [String: String] = [:]
      for (phone, value) in codes.entries {
        let path = ["auth", "sms", "test_otp", phone]
        guard let code = try reader.string(path),
          let (digits, checked) = LocalProjectOptions.testOTP(phone + "=" + code)
        else {
          throw reader.error(
            value, path,
            "must be a code of 6 to 10 digits for a phone number (E.164)")
        }
        otps[digits] = checked
      }
      smsTestOTPs = otps
    }
  }

  mutating func readStorage(_ reader: inout ConfigReader) throws(TOMLError) {
    reader.fixed(["storage", "enabled"], .boolean(true), here: "Storage is always served")
    fileSizeLimit = try size(&reader, ["storage", "file_size_limit"])
    guard let buckets = try reader.table(["storage", "buckets"]) else { return }
    for (name, value) in buckets.entries {
      let path = ["storage", "buckets", name]
      guard value.table != nil else {
        reader.markRead(path)
        throw reader.error(value, path, "must be a table of the bucket's settings")
      }
      var bucket = Bucket(name: name)
      bucket.isPublic = try reader.boolean(path + ["public"]) ?? false
      bucket.fileSizeLimit = try size(&reader, path + ["file_size_limit"])
      bucket.allowedMimeTypes = try reader.strings(path + ["allowed_mime_types"])
      self.buckets.append(bucket)
    }
  }

  /// `"50MiB"`, `"5MB"` or a number of bytes.
  func size(_ reader: inout ConfigReader, _ path: [String]) throws(TOMLError) -> Int64? {
    guard let value = reader.value(path) else { return nil }
    reader.markRead(path)
    var bytes: Int64?
    if let number = value.integer {
      bytes = Int64(number)
    } else if let text = try reader.string(path) {
      bytes = LocalProjectOptions.parseSize(text)
    }
    guard let bytes, bytes > 0 else {
      throw reader.error(value, path, "must be a size such as \"50MiB\", \"5MB\" or a byte count")
    }
    return bytes
  }

  mutating func readFunctions(_ reader: inout ConfigReader) throws(TOMLError) {
    guard let entries = try reader.table(["functions"]) else { return }
    for (name, value) in entries.entries {
      let path = ["functions", name]
      guard value.table != nil else {
        reader.markRead(path)
        throw reader.error(value, path, "must be a table of the function's settings")
      }
      var function = FunctionEntry(name: name)
      function.enabled = try reader.boolean(path + ["enabled"]) ?? true
      function.verifyJWT = try reader.boolean(path + ["verify_jwt"]) ?? true
      function.importMap = try reader.string(path + ["import_map"])
      function.entrypoint = try reader.string(path + ["entrypoint"])
      functions.append(function)
    }
  }
}
