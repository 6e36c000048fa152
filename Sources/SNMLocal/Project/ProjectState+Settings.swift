import SNMLocalAuth

extension ProjectState {
  /// The flags whose settings differ between this state and `running` (what a project runs with):
  /// `start` on a running project refuses them rather than leave them unapplied.
  ///
  /// ```swift
  /// try controller.resolvedState().changedSettings(from: saved)   // ["--auth-rate-limit"]
  /// ```
  func changedSettings(from running: ProjectState) -> [String] {
    var changed: [String] = []
    if port != running.port { changed.append("--port") }
    if migrationsDir != running.migrationsDir { changed.append("--migrations") }
    if jwtExpiry != running.jwtExpiry { changed.append("--jwt-expiry") }
    if jwtAlgorithm != running.jwtAlgorithm { changed.append("--jwt-alg") }
    if signingKeysPath != running.signingKeysPath {
      changed.append(signingKeysPath == nil ? "--no-signing-keys" : "--signing-keys")
    }
    if refreshReuseInterval != running.refreshReuseInterval {
      changed.append("--refresh-reuse-interval")
    }
    if authRateLimits != running.authRateLimits { changed.append("--auth-rate-limit") }
    for name in AuthSwitches.names where authSwitches[name] != running.authSwitches[name] {
      changed.append(AuthSwitches.flag(name, on: authSwitches[name]))
    }
    if smsTestOTPs != running.smsTestOTPs {
      changed.append(smsTestOTPs.isEmpty ? "--no-sms-test-otp" : "--sms-test-otp")
    }
    if storageFileSizeLimit != running.storageFileSizeLimit {
      changed.append("--file-size-limit")
    }
    // Settings only config.toml gives, by their key.
    if maxRows != running.maxRows { changed.append("[api] max_rows") }
    if schemas != running.schemas { changed.append("[api] schemas") }
    if extraSearchPath != running.extraSearchPath { changed.append("[api] extra_search_path") }
    if siteURL != running.siteURL { changed.append("[auth] site_url") }
    if minimumPasswordLength != running.minimumPasswordLength {
      changed.append("[auth] minimum_password_length")
    }
    for name in Set(realtimeLimits.keys).union(running.realtimeLimits.keys).sorted()
    where realtimeLimits[name] != running.realtimeLimits[name] {
      changed.append("[realtime] \(name)")
    }
    if migrationsEnabled != running.migrationsEnabled {
      changed.append("[db.migrations] enabled")
    }
    return changed
  }
}
