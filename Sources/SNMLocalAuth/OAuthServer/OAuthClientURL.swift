import SNMWire

/// A URL as GoTrue's OAuth client rules read it: the parts Go's `net/url` finds (`url.Parse` for a
/// redirect URI, `url.ParseRequestURI` for a client or logo URI), with the same refusals, so a
/// URI GoTrue takes is taken here and one it refuses is refused with its words.
///
/// ```swift
/// OAuthClientURL.redirectProblem("http://example.com/cb")    // "HTTP scheme only allowed for localhost"
/// OAuthClientURL.redirectProblem("myapp://callback")         // nil: custom schemes are fine
/// OAuthClientURL(parsing: "/about", asRequestURI: true)      // a URL: a request path is one
/// ```
struct OAuthClientURL: Equatable {
  /// Lowercased, as Go keeps it; empty when the text names none.
  var scheme = ""
  /// The authority's host and port as written (`[::1]:3000`); empty when there is none.
  var host = ""
  /// After `#`, percent escapes decoded; empty when none (or `#` ends the text).
  var fragment = ""

  /// The host without its port or IPv6 brackets (Go's `Hostname()`).
  var hostname: String {
    var name = Substring(host)
    if let colon = name.lastIndex(of: ":"), Self.isOptionalPort(name[colon...]) {
      name = name[..<colon]
    }
    if name.hasPrefix("[") && name.hasSuffix("]") { name = name.dropFirst().dropLast() }
    return String(name)
  }

  /// Why GoTrue refuses `uri` as a client's redirect URI (`validateRedirectURI`), nil when it
  /// takes it: absolute with a host, no fragment, no script-like scheme, `http` only for loopback.
  static func redirectProblem(_ uri: String) -> String? {
    guard !uri.isEmpty else { return "redirect URI cannot be empty" }
    guard let url = OAuthClientURL(parsing: uri, asRequestURI: false) else {
      return "invalid URL format"
    }
    guard !url.scheme.isEmpty, !url.host.isEmpty else { return "must have scheme and host" }
    if ["javascript", "data", "file", "vbscript", "about", "blob"].contains(url.scheme) {
      return "scheme '\(url.scheme)' is not allowed for security reasons"
    }
    if url.scheme == "http", !["localhost", "127.0.0.1", "::1"].contains(url.hostname) {
      return "HTTP scheme only allowed for localhost"
    }
    guard url.fragment.isEmpty else { return "fragment not allowed in redirect URI" }
    return nil
  }

  /// `text` read as Go does; nil where Go answers an error. `asRequestURI`: as an HTTP request
  /// names its target (`ParseRequestURI`): absolute, or a path from `/`, and `#` no fragment.
  init?(parsing text: String, asRequestURI: Bool) {
    var rest = Substring(text)
    if !asRequestURI, let hash = rest.firstIndex(of: "#") {
      guard let fragment = Self.unescaped(rest[rest.index(after: hash)...], host: false) else {
        return nil
      }
      self.fragment = fragment
      rest = rest[..<hash]
    }
    guard !rest.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
    if asRequestURI && rest.isEmpty { return nil }
    if rest == "*" { return }
    guard let (scheme, afterScheme) = Self.scheme(of: rest) else { return nil }
    self.scheme = scheme.lowercased()
    rest = afterScheme
    if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
    if !rest.hasPrefix("/") {
      if !self.scheme.isEmpty { return }  // opaque: `mailto:ann@example.com`
      if asRequestURI { return nil }
      let segment = rest.prefix { $0 != "/" }
      if segment.contains(":") { return nil }
    }
    if (!self.scheme.isEmpty || !asRequestURI && !rest.hasPrefix("///")) && rest.hasPrefix("//") {
      let authority = rest.dropFirst(2).prefix { $0 != "/" }
      rest = rest.dropFirst(2 + authority.count)
      guard let host = Self.host(ofAuthority: authority) else { return nil }
      self.host = host
    }
    guard Self.unescaped(rest, host: false) != nil else { return nil }
  }

  /// The scheme and what follows its colon; ("", text) when the text starts with none, nil when
  /// it starts with a colon (Go's "missing protocol scheme").
  static func scheme(of text: Substring) -> (String, Substring)? {
    for (offset, byte) in text.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        continue
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        if offset == 0 { return ("", text) }
      case UInt8(ascii: ":"):
        if offset == 0 { return nil }
        let colon = text.utf8.index(text.startIndex, offsetBy: offset)
        return (String(text[..<colon]), text[text.index(after: colon)...])
      default:
        return ("", text)
      }
    }
    return ("", text)
  }

  /// The host of `user:password@host:port`, nil when Go refuses the user part, the port or a
  /// character of the host.
  static func host(ofAuthority authority: Substring) -> String? {
    var host = authority
    if let at = authority.lastIndex(of: "@") {
      let user = authority[..<at]
      guard user.unicodeScalars.allSatisfy(isUserInfoCharacter),
        unescaped(user, host: false) != nil
      else { return nil }
      host = authority[authority.index(after: at)...]
    }
    if host.hasPrefix("[") {
      guard let close = host.lastIndex(of: "]"),
        isOptionalPort(host[host.index(after: close)...])
      else { return nil }
    } else if let colon = host.lastIndex(of: ":"), !isOptionalPort(host[colon...]) {
      return nil
    }
    return unescaped(host, host: true)
  }

  /// `""`, or `:` and digits.
  static func isOptionalPort(_ text: Substring) -> Bool {
    text.isEmpty || text.first == ":" && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }

  static func isUserInfoCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar)
      || ("A"..."Z").contains(scalar) || "-._:~!$&'()*+,;=%@".unicodeScalars.contains(scalar)
  }

  /// `text` with its percent escapes decoded; nil for a broken escape, or (`host`) for an ASCII
  /// character a host may not hold or an escape of one (only `%25` and non-ASCII bytes).
  static func unescaped(_ text: Substring, host: Bool) -> String? {
    let bytes = Array(text.utf8)
    var decoded: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = HexDigit.value(bytes[index + 1]),
          let low = HexDigit.value(bytes[index + 2])
        else { return nil }
        if host && high < 8 && !(high == 2 && low == 5) { return nil }
        decoded.append(high << 4 | low)
        index += 3
        continue
      }
      if host && byte < 0x80 && !isHostByte(byte) { return nil }
      decoded.append(byte)
      index += 1
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  static func isHostByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      Array("-_.~!$&'()*+,;=:[]<>\"".utf8).contains(byte)
    }
  }
}
