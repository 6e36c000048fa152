import SNMLocalAuth

extension ProjectFolderConfig {
  /// Puts the file's settings into `state`, over what it remembered or its defaults; the flags
  /// given on the command line are applied after (they win).
  func apply(to state: inout ProjectState) {
    state.projectDir = folder.root
    state.projectID = projectID
    state.migrationsDir = folder.migrationsDir
    state.migrationsEnabled = migrationsEnabled
    if let port { state.port = port }
    state.maxRows = maxRows
    state.schemas = schemas
    state.extraSearchPath = extraSearchPath
    if let siteURL { state.siteURL = siteURL }
    if let jwtExpiry { state.jwtExpiry = jwtExpiry }
    if let refreshReuseInterval { state.refreshReuseInterval = refreshReuseInterval }
    if let minimumPasswordLength { state.minimumPasswordLength = minimumPasswordLength }
    state.authSwitches.apply(authSwitches)
    state.providerKeys = providerKeys
    for (name, limit) in rateLimits { try? state.authRateLimits.set("\(name)=\(limit)") }
    if let smsTestOTPs { state.smsTestOTPs = smsTestOTPs }
    if let fileSizeLimit { state.storageFileSizeLimit = fileSizeLimit }
    state.realtimeLimits = realtimeLimits
    if let signingKeysPath { state.signingKeysPath = signingKeysPath }
  }

  /// The command-line flags that override a setting of the file (`--port overrides [api] port`):
  /// printed at start, so neither value is taken silently.
  func overrides(given: Set<String>, options: LocalProjectOptions) -> [String] {
    var pairs: [(flag: String, key: String)] = []
    if port != nil, given.contains("port") { pairs.append(("--port", "[api] port")) }
    if given.contains("migrations") { pairs.append(("--migrations", "supabase/migrations")) }
    if jwtExpiry != nil, given.contains("jwt-expiry") {
      pairs.append(("--jwt-expiry", "[auth] jwt_expiry"))
    }
    if refreshReuseInterval != nil, given.contains("refresh-reuse-interval") {
      pairs.append(("--refresh-reuse-interval", "[auth] refresh_token_reuse_interval"))
    }
    if fileSizeLimit != nil, given.contains("file-size-limit") {
      pairs.append(("--file-size-limit", "[storage] file_size_limit"))
    }
    if signingKeysPath != nil, options.signingKeysFile != nil {
      pairs.append(("--signing-keys", "[auth] signing_keys_path"))
    }
    if smsTestOTPs != nil, !options.smsTestOTPChanges.isEmpty {
      pairs.append(("--sms-test-otp", "[auth.sms.test_otp]"))
    }
    for change in options.authRateLimitChanges {
      let name = String(change.prefix { $0 != "=" })
      if rateLimits[name] != nil {
        pairs.append(("--auth-rate-limit \(name)", "[auth.rate_limit] \(name)"))
      }
    }
    for (name, on) in options.authSwitches.sorted(by: { $0.key < $1.key })
    where authSwitches[name] != nil && authSwitches[name] != on {
      pairs.append((AuthSwitches.flag(name, on: on), Self.switchKeys[name] ?? name))
    }
    return pairs.map { pair in
      pair.key == "supabase/migrations"
        ? "snm local: --migrations overrides the project folder's supabase/migrations"
        : "snm local: \(pair.flag) overrides \(pair.key) in \(folder.configFileShown)"
    }
  }

  /// Where each Auth switch sits in config.toml.
  static let switchKeys = [
    "signup": "[auth] enable_signup", "anonymous": "[auth] enable_anonymous_sign_ins",
    "confirm_email": "[auth.email] enable_confirmations",
    "secure_password_change": "[auth.email] secure_password_change",
    "phone_signup": "[auth.sms] enable_signup", "confirm_phone": "[auth.sms] enable_confirmations",
    "apple": "[auth.external.apple] enabled", "github": "[auth.external.github] enabled",
    "oauth_server": "[auth.oauth_server] enabled",
  ]
}
