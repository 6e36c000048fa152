/// A column reference in a filter or an order: an optional embed path, the column name and an
/// optional JSON path.
///
/// Written as a string it reads like the snm language: `"messages.public"` is column `public` of the
/// embedded `messages`; `"data->>blood"` is a JSON path; `"\"information.cpe\""` is one column whose
/// name has a dot. On the wire names outside `A-Z a-z 0-9 _ $` are double-quoted.
///
/// ```swift
/// let column: SupabaseColumn = "messages.public"   // key messages.public
/// SupabaseColumn("first name").wireName             // "first name" (quoted)
/// ```
public struct SupabaseColumn: Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// One step of a JSON path: `->key` (JSON) or `->>key` (text).
  public struct JSONPathStep: Sendable, Hashable {
    public var key: String
    /// `true` for `->>` (the value as text).
    public var asText: Bool

    public init(_ key: String, asText: Bool) {
      self.key = key
      self.asText = asText
    }
  }

  /// Embedded resources leading to the column (`["messages"]` for `messages.public`).
  public var embedPath: [String]
  public var name: String
  public var jsonPath: [JSONPathStep]

  public init(_ name: String, embedPath: [String] = [], jsonPath: [JSONPathStep] = []) {
    self.name = name
    self.embedPath = embedPath
    self.jsonPath = jsonPath
  }

  /// Reads `embed.column->key->>key`, where any segment may be double-quoted (`\` escapes inside).
  public init(parsing text: String) {
    var segments: [String] = []
    var steps: [JSONPathStep] = []
    var current = ""
    var arrow: Bool?  // nil while still in the name part; else the kind of the step being read
    var characters = text[...]
    func finish() {
      if let asText = arrow {
        steps.append(JSONPathStep(current, asText: asText))
      } else {
        segments.append(current)
      }
      current = ""
    }
    while let character = characters.first {
      characters = characters.dropFirst()
      if character == "\"" {
        while let inner = characters.first {
          characters = characters.dropFirst()
          if inner == "\"" { break }
          if inner == "\\", let escaped = characters.first {
            characters = characters.dropFirst()
            current.append(escaped)
          } else {
            current.append(inner)
          }
        }
      } else if character == "-", characters.first == ">" {
        finish()
        characters = characters.dropFirst()
        let asText = characters.first == ">"
        if asText { characters = characters.dropFirst() }
        arrow = asText
      } else if character == ".", arrow == nil {
        finish()
      } else {
        current.append(character)
      }
    }
    finish()
    name = segments.removeLast()
    embedPath = segments
    jsonPath = steps
  }

  public init(stringLiteral value: String) {
    self.init(parsing: value)
  }

  /// The column as the wire names it inside its embed: quoted name plus JSON path
  /// (`data->>blood`, `"first name"`).
  public var wireName: String {
    PostgresLiteral.name(name)
      + jsonPath.map { step in
        (step.asText ? "->>" : "->")
          + (Self.isIndex(step.key) ? step.key : PostgresLiteral.name(step.key))
      }.joined()
  }

  /// The full parameter key: embed path, then ``wireName`` (`messages.public`).
  public var wireKey: String {
    (embedPath.map(PostgresLiteral.name) + [wireName]).joined(separator: ".")
  }

  /// The column written back the way ``init(parsing:)`` reads it.
  public var description: String {
    func part(_ text: String) -> String {
      let plain = !text.isEmpty && !text.contains { "\".\\".contains($0) } && !text.contains("->")
      return plain ? text : PostgresLiteral.quoted(text)
    }
    return (embedPath.map(part) + [part(name)]).joined(separator: ".")
      + jsonPath.map { ($0.asText ? "->>" : "->") + part($0.key) }.joined()
  }

  /// The column without its embed path.
  var withoutEmbedPath: SupabaseColumn {
    SupabaseColumn(name, jsonPath: jsonPath)
  }

  /// Whether a JSON path step is an array index (`0`, `-1`): sent unquoted, read so by PostgREST.
  static func isIndex(_ key: String) -> Bool {
    let digits = key.hasPrefix("-") ? key.dropFirst() : key[...]
    return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
  }
}
