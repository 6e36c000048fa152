import SNMWire

/// Canonical text of the smaller nodes: names, select items, values, and the non-query statements.
extension Name {
  var canonicalText: String {
    quoted ? Value.quoted(text) : text
  }
}

extension TableName {
  var canonicalText: String {
    (schema.map { $0.canonicalText + "." } ?? "") + name.canonicalText
  }
}

extension ColumnPath {
  var canonicalText: String {
    var text = embedPath.map { $0.canonicalText + "." }.joined() + column.canonicalText
    for step in json {
      text += step.asText ? "->>" : "->"
      text += step.quoted ? Value.quoted(step.key) : step.key
    }
    return text
  }
}

extension SelectList {
  var canonicalText: String {
    indices.map { canonicalText(at: $0) }.joined(separator: ", ")
  }

  func canonicalText(at node: Int) -> String {
    switch self[node] {
    case .star: return "*"
    case .field(let field):
      var text = field.alias.map { $0.canonicalText + ":" } ?? ""
      if field.column.column.text.isEmpty, let aggregate = field.aggregate {
        text += aggregate.canonicalText + "()"
      } else {
        text += field.column.canonicalText
        if let inputCast = field.inputCast { text += "::" + inputCast.canonicalText }
        if let aggregate = field.aggregate { text += "." + aggregate.canonicalText + "()" }
      }
      if let cast = field.cast { text += "::" + cast.canonicalText }
      return text
    case .embed(let embed):
      var text = embed.spread ? "..." : ""
      text += embed.alias.map { $0.canonicalText + ":" } ?? ""
      text += embed.relation.canonicalText
      text += embed.hints.map { "!" + $0.canonicalText }.joined()
      return text + "(" + items(of: node).canonicalText + ")"
    }
  }
}

extension Value {
  /// The canonical spelling of a value; strings are double-quoted with JSON escapes.
  public var canonicalText: String {
    switch self {
    case .string(let literal):
      var text = "\""
      for part in literal.parts {
        switch part {
        case .text(let chunk): text += Value.escaped(chunk)
        case .variable(let reference): text += "${" + reference.spelling.dropFirst() + "}"
        case .generator(let generator): text += generator.spelling
        }
      }
      return text + "\""
    case .number(let text), .uuid(let text), .date(let text), .timestamp(let text), .word(let text):
      return text
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .variable(let reference): return reference.spelling
    case .array(let elements):
      return "[" + elements.map(\.value.canonicalText).joined(separator: ", ") + "]"
    case .list(let elements):
      return "(" + elements.map(\.value.canonicalText).joined(separator: ", ") + ")"
    case .object(let members):
      let inner = members.map { Value.quoted($0.key) + ": " + $0.value.value.canonicalText }
      return "{" + inner.joined(separator: ", ") + "}"
    }
  }

  /// `text` in double quotes with JSON escapes (and `\$` so no `$` is read as a variable).
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text) + "\""
  }

  static func escaped(_ text: String) -> String {
    snmString.escape(text)
  }

  static let snmString = ScalarEscaping(
    [
      "\"": "\\\"", "\\": "\\\\", "$": "\\$", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ],
    other: { $0 < 0x20 || $0 == 0x7F ? "\\u" + ScalarEscaping.hex($0, digits: 4) : nil })
}

extension SessionStatement {
  var canonicalText: String {
    switch self {
    case .loginAnonymously: "login"
    case .login(let email, let password):
      "login email " + email.value.canonicalText
        + (password.map { " password " + $0.value.canonicalText } ?? "")
    case .signup(let email, let password, let data):
      "signup email " + email.value.canonicalText
        + (password.map { " password " + $0.value.canonicalText } ?? "")
        + (data.map { " data " + $0.value.canonicalText } ?? "")
    case .check: "session check"
    case .show: "session show"
    case .refresh: "session refresh"
    case .token: "session token"
    case .logout(let scope): "logout" + (scope.map { " " + $0.rawValue } ?? "")
    }
  }
}

extension ExpectStatement {
  var canonicalText: String {
    switch self {
    case .rows(let comparison, let value):
      "expect rows \(comparison.rawValue) \(value.value.canonicalText)"
    case .status(let comparison, let value):
      "expect status \(comparison.rawValue) \(value.value.canonicalText)"
    case .error(let code): "expect error" + (code.map { " " + $0.value.canonicalText } ?? "")
    case .compare(let left, let comparison, let right):
      "expect \(left.value.canonicalText) \(comparison.rawValue) \(right.value.canonicalText)"
    default: "expect " + moreCanonicalText
    }
  }
}

extension ShellStatement {
  var canonicalText: String {
    switch self {
    case .help(let topic): "help" + (topic.map { " " + $0 } ?? "")
    case .tables: "tables"
    case .describe(let table, let detailed):
      (detailed ? "describe+ " : "describe ") + table.canonicalText
    case .explain(let statement, let format):
      "explain " + (format == .text ? "" : format.rawValue + " ") + statement.canonicalText
    case .setFormat(let format): "set format " + format.rawValue
    case .setTiming(let on): on.map { "set timing " + ($0 ? "on" : "off") } ?? "\\timing"
    case .setOnError(let mode): "set on_error " + mode.rawValue
    case .setPager(let on): "set pager " + (on ? "on" : "off")
    case .setExpanded(let mode): "set expanded " + mode.rawValue
    case .toggleExpanded: "\\x"
    case .setNull(let text): "set null " + Value.quoted(text)
    case .setTimezone(let zone): "set timezone " + (zone.map(Value.quoted) ?? "off")
    case .connectionInfo: "\\conninfo"
    case .output(let file):
      "\\o" + (file.map { " " + Value.string($0.literal).canonicalText } ?? "")
    case .edit: "\\e"
    case .watch(let seconds, let count):
      "\\watch \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds))"
        + (count.map { " count=\($0)" } ?? "")
    case .backslashHelp: "\\?"
    case .exit: "exit"
    }
  }
}
