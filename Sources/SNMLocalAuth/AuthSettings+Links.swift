import SNMWire

extension AuthSettings {
  /// The verify link GoTrue mails: `<issuer>/verify?token=HASH&type=TYPE&redirect_to=URL`.
  func verifyLink(tokenHash: String, type: String, redirectTo: String?) -> String {
    "\(issuer)/verify?token=\(tokenHash)&type=\(type)&redirect_to="
      + PercentEncoding.encode(redirectURL(redirectTo))
  }

  /// `redirect_to` when it points at this machine (as GoTrue keeps to its allow list), else the
  /// site URL: a link never hands tokens to another host.
  func redirectURL(_ requested: String?) -> String {
    guard let requested, !requested.isEmpty else { return siteURL }
    let lower = requested.lowercased()
    for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
      let rest = lower.dropFirst(scheme.count)
      let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      let host: Substring
      if authority.hasPrefix("[") {
        host = authority.prefix { $0 != "]" }.dropFirst()
      } else {
        host = authority.prefix { $0 != ":" }
      }
      if ["localhost", "127.0.0.1", "::1"].contains(String(host)),
        !authority.contains("@"),
        !requested.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7f })
      {
        return requested
      }
    }
    return siteURL
  }
}
