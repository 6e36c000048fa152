import Foundation

/// The names a file written by `snm gen swift` gives each table and view: the Swift type that
/// holds it (`PublicSchema.DogProfile`, with `tableName` and `schemaName`) and its `Columns`
/// cases, so `explain` can write a supabase-swift chain that names them
/// (``SupabaseSwiftChain``).
///
/// ```swift
/// let names = GeneratedSwiftNames(text: try String(contentsOfFile: "Sources/DB/Schema.swift"))
/// names.relation(schema: "public", table: "dog_profile")?.type      // "PublicSchema.DogProfile"
/// names.relation(schema: "public", table: "dog_profile")?.columns["owner_id"]   // "ownerId"
/// ```
/// It reads the generator's own layout (two spaces an indent, one relation an `enum` in its
/// schema's), not Swift at large: a file edited by hand may give fewer names.
public struct GeneratedSwiftNames: Sendable, Equatable {
  public struct Relation: Sendable, Equatable {
    /// `PublicSchema.DogProfile`.
    public var type: String
    /// Column name -> its `Columns` case (`` `default` ``, `ownerId`).
    public var columns: [String: String] = [:]
  }

  /// Keyed by schema, then table name.
  public var relations: [String: [String: Relation]] = [:]

  /// The environment variable that names the generated file.
  public static let variable = "SNM_GEN_SWIFT"

  public init(text: String) {
    var top: String?
    var current: String?
    var schema: String?
    var table: String?
    var inColumns = false
    var columns: [String: String] = [:]
    func finish() {
      if let top, let current, let schema, let table {
        relations[schema, default: [:]][table] = Relation(
          type: top + "." + current, columns: columns)
      }
    }
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(raw)
      let indent = line.prefix { $0 == " " }.count
      let body = Self.withoutAccess(line.dropFirst(indent))
      if indent == 0, let name = Self.opening(body, kind: "enum") {
        finish()
        (top, current, schema, table, columns) = (name, nil, nil, nil, [:])
      } else if indent == 2, let name = Self.opening(body, kind: "enum") {
        finish()
        (current, schema, table, columns) = (name, nil, nil, [:])
      } else if indent == 4, current != nil {
        if let value = Self.constant(body, "schemaName") {
          schema = value
        } else if let value = Self.constant(body, "tableName") {
          table = value
        } else if body.hasPrefix("enum Columns:") {
          inColumns = true
        } else if body == "}" {
          inColumns = false
        }
      } else if indent == 6, inColumns, body.hasPrefix("case ") {
        let parts = body.dropFirst(5).split(separator: " = ", maxSplits: 1)
        if parts.count == 2, let column = Self.literal(String(parts[1])) {
          columns[column] = String(parts[0])
        }
      } else if indent < 4, body == "}" {
        inColumns = false
      }
    }
    finish()
  }

  /// Reads the file `SNM_GEN_SWIFT` names; nil when it names none, or why it cannot be read.
  public static func configured(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Result<GeneratedSwiftNames, Unreadable>? {
    guard let path = environment[variable], !path.isEmpty else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(Unreadable(path: path))
    }
    return .success(GeneratedSwiftNames(text: String(decoding: data, as: UTF8.self)))
  }

  /// `SNM_GEN_SWIFT` names a file that cannot be read.
  public struct Unreadable: Error, Sendable, Equatable {
    public var path: String
  }

  public func relation(schema: String, table: String) -> Relation? {
    relations[schema]?[table]
  }

  static func withoutAccess(_ text: Substring) -> Substring {
    for word in ["public ", "internal ", "package "] where text.hasPrefix(word) {
      return text.dropFirst(word.count)
    }
    return text
  }

  /// `Name` of `enum Name {` (or `enum Name: ... {`).
  static func opening(_ body: Substring, kind: String) -> String? {
    guard body.hasPrefix(kind + " "), body.hasSuffix("{") else { return nil }
    let rest = body.dropFirst(kind.count + 1)
    let name = rest.prefix { $0 != " " && $0 != ":" && $0 != "{" }
    return name.isEmpty ? nil : String(name)
  }

  /// The value of `static let <name> = "..."`.
  static func constant(_ body: Substring, _ name: String) -> String? {
    let prefix = "static let \(name) = "
    guard body.hasPrefix(prefix) else { return nil }
    return literal(String(body.dropFirst(prefix.count)))
  }

  /// A Swift string literal as the generator writes one (`\"`, `\\`, `\n`, `\t`, `\r`, `\0`,
  /// `\u{..}`), whole; nil for anything else.
  static func literal(_ text: String) -> String? {
    var scalars = Array(text.unicodeScalars)
    guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
    scalars = Array(scalars.dropFirst().dropLast())
    var out = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      guard scalar == "\\" else {
        if scalar == "\"" { return nil }
        out.append(scalar)
        continue
      }
      guard index < scalars.count else { return nil }
      let escaped = scalars[index]
      index += 1
      switch escaped {
      case "\"", "\\", "'": out.append(escaped)
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "0": out.append("\0")
      case "u":
        guard index < scalars.count, scalars[index] == "{",
          let close = scalars[index...].firstIndex(of: "}"),
          let value = UInt32(
            String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
          let decoded = Unicode.Scalar(value)
        else { return nil }
        out.append(decoded)
        index = close + 1
      default: return nil
      }
    }
    return String(out)
  }
}
