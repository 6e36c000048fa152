/// `defer <statement>`: the statement runs when the file it is in ends, in reverse order of the
/// defers, whatever happened (a failure, Ctrl-C, SIGTERM); its outcome is reported beside the
/// file's own.
///
/// ```
/// let dog = from dog_profile insert {"name": "CI Dog", "owner": $me} returning id single
/// defer from dog_profile delete where id eq $dog.id
/// ```
public struct DeferStatement: Sendable, Equatable {
  public var statement: Statement
}

/// `10s`, `500ms`, `1.5m`, `1h`: a duration as written, in milliseconds.
public struct DurationValue: Sendable, Equatable {
  public var milliseconds: Int
  public var text: String
  public var range: SourceRange

  /// Milliseconds for `500ms`, `10s`, `1.5m`, `2h`, `1d`; nil for anything else.
  public static func milliseconds(of text: String) -> Int? {
    let units: [(String, Double)] = [
      ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]
    for (unit, scale) in units where text.hasSuffix(unit) {
      let number = text.dropLast(unit.count)
      guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        let value = Double(number), value >= 0, value * scale < 1e15
      else { continue }
      return Int((value * scale).rounded())
    }
    return nil
  }
}

/// `> 'out.csv'` after a query or `rpc`: where its result goes.
public struct OutputFile: Sendable, Equatable {
  /// As written (for messages and the format).
  public var path: String
  /// With its `${...}` parts, filled in when the statement runs.
  public var literal: StringLiteral
  public var range: SourceRange

  public init(path: String, literal: StringLiteral? = nil, range: SourceRange) {
    self.path = path
    self.literal = literal ?? StringLiteral(path)
    self.range = range
  }
}

/// `insert file 'dogs.json'` (a JSON object or array) or `insert csv 'dogs.csv'` (sent as
/// `text/csv`, which PostgREST reads as rows: a header line of column names, `NULL` for null).
public struct BodyFile: Sendable, Equatable {
  public enum Format: String, Sendable, Equatable {
    case json, csv
  }

  /// As written (for messages).
  public var path: String
  /// With its `${...}` parts, filled in when the statement runs.
  public var literal: StringLiteral
  public var format: Format
  public var range: SourceRange

  public init(path: String, literal: StringLiteral? = nil, format: Format, range: SourceRange) {
    self.path = path
    self.literal = literal ?? StringLiteral(path)
    self.format = format
    self.range = range
  }
}
