/// Passwords written in the source, masked wherever source text is printed: diagnostics (at the
/// prompt, in scripts, `snm check`, test reports), `--echo`, failures and interruptions.
///
/// ```swift
/// SecretMask.text(of: statement.range, in: source)
/// // login email 'kim@example.com' password '********'
/// ```
/// Secrets are found in the tokens, line by line, so a line that does not parse is masked too: a
/// quoted string right after `password`, and on a line that starts with `login` or `signup`
/// every quoted string but the one after `email` (`login email 'a@b.c' 'pw'`, `pasword 'pw'`);
/// and whatever follows `password` unquoted, to the end of the statement (`password hunter2 x`).
/// The same goes for what follows `token`, `code`, `nonce` and `secret` (one-time codes, TOTP
/// codes and secrets), quoted or not.
/// An unterminated string counts to the end of its line. A `$variable` is a name, no secret, and
/// shows as written.
public enum SecretMask {
  /// What a secret prints as.
  public static let replacement = "'********'"

  /// The text of `range` with each secret in it replaced by ``replacement``.
  public static func text(of range: SourceRange, in source: Source) -> String {
    text(of: range, in: source, secrets: secrets(in: range, of: source))
  }

  /// The byte ranges of the secrets on the lines `range` touches, in order.
  public static func secrets(in range: SourceRange, of source: Source) -> [SourceRange] {
    var found: [SourceRange] = []
    var line = source.lineRange(containing: range.start)
    while true {
      found += secrets(onLine: line, of: source)
      guard line.end < range.end, line.end < source.bytes.count else { break }
      line = source.lineRange(containing: nextLineStart(after: line, in: source))
    }
    return found
  }

  /// The text of `range` with `secrets` (as found by ``secrets(in:of:)``) that lie inside it
  /// replaced; widen the range first (``widened(_:by:)``) so that none is cut in two.
  static func text(of range: SourceRange, in source: Source, secrets: [SourceRange]) -> String {
    var shown = ""
    var cursor = range.start
    for secret in secrets where secret.start >= cursor && secret.end <= range.end {
      shown += source.text(of: SourceRange(start: cursor, end: secret.start)) + replacement
      cursor = secret.end
    }
    return shown + source.text(of: SourceRange(start: cursor, end: max(cursor, range.end)))
  }

  /// `range` grown so that each of its ends that falls inside a secret takes all of it.
  static func widened(_ range: SourceRange, by secrets: [SourceRange]) -> SourceRange {
    var start = range.start
    var end = range.end
    for secret in secrets {
      if secret.start < start && start < secret.end { start = secret.start }
      if secret.start < end && end < secret.end { end = secret.end }
    }
    return SourceRange(start: start, end: max(start, end))
  }

  /// The secrets on one line (a range without its line break).
  static func secrets(onLine line: SourceRange, of source: Source) -> [SourceRange] {
    guard line.end > line.start else { return [] }
    var lexer = Lexer(bytes: Array(source.bytes[line.start..<line.end]))
    lexer.run()
    let tokens = lexer.tokens
    // `login otp|magic ...` mails a code: its address is no secret.
    let byMail =
      tokens.count > 1 && tokens[1].kind == .word
      && ["otp", "magic"].contains(
        source.text(
          of: SourceRange(start: line.start + tokens[1].start, end: line.start + tokens[1].end)
        )
        .lowercased())
    let signingIn =
      !byMail && (tokens.first.map { $0.keyword == .login || $0.keyword == .signup } ?? false)
    var found: [SourceRange] = []
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      let previous = index > 0 ? tokens[index - 1].keyword : nil
      let secretWord = index > 0 && isSecretWord(tokens[index - 1], line: line, in: source)
      if previous == .password || secretWord, let end = unquotedSecretEnd(tokens, from: index) {
        // `password hunter2secret`, `code 123456`: the rest of the statement on the line.
        found.append(SourceRange(start: line.start + token.start, end: line.start + end))
        while index < tokens.count && tokens[index].end <= end { index += 1 }
        continue
      }
      if isQuoted(token)
        && (previous == .password || secretWord || (signingIn && previous != .email))
      {
        found.append(SourceRange(start: line.start + token.start, end: line.start + token.end))
      }
      index += 1
    }
    return found
  }

  /// Where an unquoted password starting at `tokens[index]` ends: the end of its statement on
  /// the line (a password may hold spaces); nil for a quoted one, a `$variable` or nothing.
  static func unquotedSecretEnd(_ tokens: [Token], from index: Int) -> Int? {
    let first = tokens[index]
    switch first.kind {
    case .singleQuoted, .doubleQuoted, .unterminatedString, .variable, .newline, .semicolon,
      .endOfFile:
      return nil
    default:
      break
    }
    var end = first.end
    var next = index + 1
    while next < tokens.count {
      switch tokens[next].kind {
      case .newline, .semicolon, .endOfFile: return end
      default: break
      }
      end = tokens[next].end
      next += 1
    }
    return end
  }

  /// The words before a secret besides `password`: `token` (an emailed code), `code` (a TOTP
  /// code), `nonce`, `secret` (a TOTP secret).
  static let secretWords: Set<String> = ["token", "code", "nonce", "secret"]

  static func isSecretWord(_ token: Token, line: SourceRange, in source: Source) -> Bool {
    guard token.kind == .word, token.end - token.start <= 6 else { return false }
    let text = source.text(
      of: SourceRange(start: line.start + token.start, end: line.start + token.end))
    return secretWords.contains(text.lowercased())
  }

  static func isQuoted(_ token: Token) -> Bool {
    switch token.kind {
    case .singleQuoted, .doubleQuoted, .unterminatedString: true
    default: false
    }
  }

  /// Where the line after `line` starts (past `\n`, or `\r\n`).
  static func nextLineStart(after line: SourceRange, in source: Source) -> Int {
    var next = line.end
    if next < source.bytes.count && source.bytes[next] == UInt8(ascii: "\r") { next += 1 }
    return min(next + 1, source.bytes.count)
  }
}
