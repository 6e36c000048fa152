import SNMTestSupport

/// Makes random statements: grammar-shaped ones, token soup, and byte-level mutations of real ones.
struct StatementFuzzer {
  var random: SeededGenerator

  static let seeds: [String] =
    SpecExample.all.map(\.statement) + ParserQueryTests.forms.map(\.input)
    + ParserStatementTests.sessionForms.map(\.input) + ParserStatementTests.scriptForms.map(\.input)
    + ParserStatementTests.shellForms.map(\.input) + DiagnosticGoldenTests.cases.map(\.input)

  static let fragments: [String] = [
    "from", "select", "where", "and", "or", "not", "is", "in", "null", "true", "false", "order",
    "by",
    "asc", "desc", "nulls", "first", "last", "limit", "offset", "single", "maybe", "count", "exact",
    "returning", "insert", "upsert", "update", "delete", "rpc", "get", "on", "conflict", "ignore",
    "duplicates", "all", "any", "like", "ilike", "eq", "neq", "gt", "gte", "lt", "lte", "cs", "cd",
    "fts", "fts(english)", "contains", "login", "email", "password", "session", "check", "let",
    "expect",
    "rows", "status", "error", "echo", "run", "help", "explain", "set", "format", "timing", "\\q",
    "\\d", "\\i", "\\x", "\\timing", "user_info", "dog", "a", "b", "\"Order Items\"", "'it''s'",
    "\"x\\\"y\"", "'${a}'", "$a", "$a.b", "$a[0].c", "${a}", "$env.HOME", "$", "${",
    "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b",
    "2026-11-29", "2026-11-29T10:00:00Z", "1", "-1", "3.5", "1e9", "01", "*", ",", ".", "...",
    ":", "::", "!", "(", ")", "[", "]", "{", "}", "=", "==", "!=", "<>", "<", "<=", ">", ">=", "~",
    "~*", "->", "->>", ";", "\n", "\t", " ", "\\\n", "\\", "#c\n", "-- c\n", "'", "\"", "이름",
    "🐶", "\u{0}", "\r\n", "{\"k\": 1}", "[1, 2]", "(1, 2)",
  ]

  mutating func int(_ upper: Int) -> Int { Int.random(in: 0..<max(1, upper), using: &random) }

  mutating func statement() -> String {
    switch int(6) {
    case 0: return soup()
    case 4, 5: return query()
    case 1: return mutate(Self.seeds[int(Self.seeds.count)])
    case 2: return splice()
    default: return mutateTokens(Self.seeds[int(Self.seeds.count)])
    }
  }

  /// Random fragments joined by spaces.
  mutating func soup() -> String {
    var parts: [String] = []
    for _ in 0..<(1 + int(24)) { parts.append(Self.fragments[int(Self.fragments.count)]) }
    return parts.joined(separator: int(3) == 0 ? "" : " ")
  }

  /// A real statement with a few bytes inserted, deleted or replaced.
  mutating func mutate(_ text: String) -> String {
    var bytes = Array(text.utf8)
    for _ in 0..<(1 + int(4)) {
      let position = int(bytes.count + 1)
      switch int(4) {
      case 0 where !bytes.isEmpty: bytes.remove(at: min(position, bytes.count - 1))
      case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
      case 2 where !bytes.isEmpty:
        let specials = Array("(){}[]'\"$\\,.;:\n#-*!<>=~ ".utf8)
        bytes[min(position, bytes.count - 1)] = specials[int(specials.count)]
      default: bytes = Array(bytes.prefix(position))
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The start of one real statement and the end of another.
  mutating func splice() -> String {
    let a = Array(Self.seeds[int(Self.seeds.count)])
    let b = Array(Self.seeds[int(Self.seeds.count)])
    return String(a.prefix(int(a.count + 1))) + String(b.suffix(int(b.count + 1)))
  }

  /// A real statement with words swapped for fragments.
  mutating func mutateTokens(_ text: String) -> String {
    var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    for _ in 0..<(1 + int(3)) where !words.isEmpty {
      words[int(words.count)] = Self.fragments[int(Self.fragments.count)]
    }
    return words.joined(separator: " ")
  }

  mutating func pick(_ choices: [String]) -> String { choices[int(choices.count)] }

  /// A query built from the grammar: mostly valid, with every clause and operator.
  mutating func query() -> String {
    var text = "from " + pick(["user_info", "dog", "\"Order Items\"", "api.t", "SELECT"]) + " "
    let verb = pick(["select", "select", "insert", "upsert", "update", "delete", "rpc"])
    switch verb {
    case "select": text += "select " + selectList(depth: 0)
    case "insert", "upsert":
      text += verb + " " + pick([value(depth: 1), "[" + value(depth: 1) + "]", "$a"])
    case "update": text += "update " + pick(["{\"a\": 1}", "$a", value(depth: 1)])
    case "delete": text += "delete"
    default:
      text =
        "rpc " + pick(["get ", ""]) + pick(["fn", "s.fn"]) + " " + pick(["", "{\"x\": 1}", "$a"])
    }
    if int(4) != 0 { text += " where " + (int(8) == 0 ? "all" : condition(depth: 0)) }
    for _ in 0..<int(4) {
      text +=
        " "
        + pick([
          "order by " + column() + pick(["", " asc", " desc"])
            + pick(["", " nulls first", " nulls last"]),
          "limit " + pick(["1", "0", "$a", "-1"]), "offset 5", "single", "maybe single",
          "count " + pick(["exact", "planned", "estimated"]), "returning " + selectList(depth: 1),
        ])
    }
    return text
  }

  mutating func selectList(depth: Int) -> String {
    var items: [String] = []
    for _ in 0..<(1 + int(3)) {
      switch int(depth > 1 ? 3 : 5) {
      case 0: items.append("*")
      case 1: items.append(pick(["", "nick:"]) + column())
      case 2: items.append(column() + pick(["::text", "->>k", "->'a b'->0", ".sum()"]))
      default:
        items.append(
          pick(["", "o:", "..."]) + pick(["rel", "owner"]) + pick(["", "!inner", "!fk!left"]) + "("
            + selectList(depth: depth + 1) + ")")
      }
    }
    return items.joined(separator: ", ")
  }

  mutating func column() -> String {
    pick([
      "id", "name", "age", "\"first name\"", "messages.public", "data->>blood", "order", "count",
    ])
  }

  mutating func condition(depth: Int) -> String {
    switch int(depth > 2 ? 1 : 5) {
    case 1:
      return condition(depth: depth + 1) + pick([" and ", " or "]) + condition(depth: depth + 1)
    case 2: return "(" + condition(depth: depth + 1) + ")"
    case 3: return "not (" + condition(depth: depth + 1) + ")"
    default:
      let column = column()
      switch int(8) {
      case 0:
        return column + " is " + pick(["", "not "]) + pick(["null", "true", "false", "unknown"])
      case 1:
        return column + pick([" in ", " not in "]) + "(" + value(depth: 2) + ", " + value(depth: 2)
          + ")"
      case 2:
        return column + " " + pick(["like", "ilike", "eq"]) + " " + pick(["any", "all"])
          + " ['a', 'b%']"
      case 3:
        return column + " " + pick(["cs", "cd", "ov", "contains"]) + " "
          + pick(["['a,b', 'c']", "{\"k\": [1]}", "'[1,2)'"])
      case 4:
        return column + " " + pick(["fts", "plfts(english)", "wfts(simple)"]) + " 'fat & cat'"
      default:
        return column + " " + pick(["", "not "])
          + pick([
            "eq", "=", "!=", "<>", ">", ">=", "<", "<=", "~", "~*", "like", "neq", "isdistinct",
          ])
          + " " + value(depth: 2)
      }
    }
  }

  mutating func value(depth: Int) -> String {
    switch int(depth > 2 ? 8 : 11) {
    case 0: return "'it''s ${a}'"
    case 1: return "\"tab\\t \\u00e9 🐶\""
    case 2: return pick(["1", "-2.5", "1e3", "0"])
    case 3: return pick(["true", "false", "null"])
    case 4: return "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
    case 5: return pick(["2026-11-29", "2026-11-29T10:00:00Z"])
    case 6: return pick(["$a", "$a.b", "$a[0].c", "$env.HOME"])
    case 7: return "'x, (y) \"z\" \\ {w}'"
    case 8: return "[" + value(depth: depth + 1) + ", " + value(depth: depth + 1) + "]"
    case 9:
      return "{\"k\": " + value(depth: depth + 1) + ", \"k2\": " + value(depth: depth + 1) + "}"
    default: return "'a'"
    }
  }
}
