/// What a token is. Keywords are `.word` tokens with `Token.keyword` set.
public enum TokenKind: UInt8, Sendable, Hashable {
  /// `[A-Za-z_][A-Za-z0-9_$]*`; may be a keyword (case-insensitive) or a name (case-sensitive).
  case word
  /// `"..."` with JSON escapes: a name in name position, a string in value position.
  case doubleQuoted
  /// `'...'` with `''` for a quote: always a string.
  case singleQuoted
  /// A JSON number, kept as written.
  case number
  /// A bare UUID such as `0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b`.
  case uuid
  /// A bare date such as `2026-11-29`.
  case date
  /// A bare timestamp such as `2026-11-29T10:00:00Z`.
  case timestamp
  /// `$name`, `$name.field`, `$name[0].field`, `${name}`, `$env.NAME`.
  case variable
  /// A psql-style command: `\q`, `\d`, `\d+`, `\?`, `\watch`, ...
  /// (`ShellStatementParser.backslashCommands`).
  case backslashCommand

  case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
  case comma, dot, ellipsis, colon, doubleColon, star, bang
  /// `->` and `->>` (JSON paths).
  case arrow, doubleArrow
  /// `=`, `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `~`, `~*`.
  case equal, doubleEqual, notEqual, lessGreater, less, lessEqual, greater, greaterEqual
  case tilde, tildeStar

  /// A line break that ends a statement (not inside brackets, not after a trailing `\`).
  case newline
  /// `;`
  case semicolon
  /// The end of the source.
  case endOfFile

  /// A string whose closing quote is missing on its line.
  case unterminatedString
  /// A number that is not a JSON number (`01`, `1.`, `3abc`).
  case malformedNumber
  /// Characters the language does not use (`/`, `@`, an unquoted non-ASCII letter, ...).
  case invalid
}

extension TokenKind {
  /// Whether the token ends a statement.
  public var isStatementEnd: Bool {
    self == .newline || self == .semicolon || self == .endOfFile
  }

  /// Whether the token is a string in quotes, either kind (`'...'`, `"..."`).
  public var isQuoted: Bool {
    self == .singleQuoted || self == .doubleQuoted
  }

  /// Whether the token is one of the lexer's error kinds.
  public var isError: Bool {
    self == .unterminatedString || self == .malformedNumber || self == .invalid
  }

  /// A short description for messages (`expected ')'`, `unexpected ','`).
  public var spelling: String {
    switch self {
    case .word: "a name"
    case .doubleQuoted: "a double-quoted name or string"
    case .singleQuoted: "a string"
    case .number: "a number"
    case .uuid: "a UUID"
    case .date: "a date"
    case .timestamp: "a timestamp"
    case .variable: "a variable"
    case .backslashCommand: "a backslash command"
    case .leftParen: "'('"
    case .rightParen: "')'"
    case .leftBracket: "'['"
    case .rightBracket: "']'"
    case .leftBrace: "'{'"
    case .rightBrace: "'}'"
    case .comma: "','"
    case .dot: "'.'"
    case .ellipsis: "'...'"
    case .colon: "':'"
    case .doubleColon: "'::'"
    case .star: "'*'"
    case .bang: "'!'"
    case .arrow: "'->'"
    case .doubleArrow: "'->>'"
    case .equal: "'='"
    case .doubleEqual: "'=='"
    case .notEqual: "'!='"
    case .lessGreater: "'<>'"
    case .less: "'<'"
    case .lessEqual: "'<='"
    case .greater: "'>'"
    case .greaterEqual: "'>='"
    case .tilde: "'~'"
    case .tildeStar: "'~*'"
    case .newline: "the end of the line"
    case .semicolon: "';'"
    case .endOfFile: "the end of the input"
    case .unterminatedString: "an unterminated string"
    case .malformedNumber: "a malformed number"
    case .invalid: "an invalid character"
    }
  }
}
