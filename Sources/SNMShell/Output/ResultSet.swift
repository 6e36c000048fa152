import SNMNetwork
import SNMWire

/// A response body seen as rows and columns, for the table, expanded and csv formats.
///
/// ```swift
/// let result = ResultSet(try JSONValue(parsing: body))
/// result.columns   // ["id", "name"]
/// result.rows[0]   // [1, "Kim"]
/// ```
/// An array of objects gives one row per object and the union of their keys as columns, in the
/// order first seen (a missing key reads as null). A single object is one row. An array of other
/// values, or a scalar, gives one column named `defaultColumn`.
public struct ResultSet: Sendable {
  /// The column names, in order.
  public let columns: [String]
  /// One array of values per row, parallel to `columns`.
  public let rows: [[JSONValue]]

  /// The rows of `value`.
  public init(_ value: JSONValue, defaultColumn: String = "value") {
    switch value {
    case .array(let elements):
      if elements.allSatisfy({ $0.objectValue != nil }) {
        (columns, rows) = Self.tabulate(elements.compactMap(\.objectValue))
      } else {
        columns = [defaultColumn]
        rows = elements.map { [$0] }
      }
    case .object(let object):
      (columns, rows) = Self.tabulate([object])
    default:
      columns = [defaultColumn]
      rows = [[value]]
    }
  }

  /// Rows given directly.
  public init(columns: [String], rows: [[JSONValue]]) {
    self.columns = columns
    self.rows = rows
  }

  /// Objects to rows. Rows parsed from one response usually share their key array, which makes
  /// the common case a copy of each row's values.
  static func tabulate(_ objects: [JSONObject]) -> ([String], [[JSONValue]]) {
    guard let first = objects.first else { return ([], []) }
    var columns = first.keys
    var known = Set(columns)
    for object in objects.dropFirst() where object.keys != columns {
      for key in object.keys where !known.contains(key) {
        known.insert(key)
        columns.append(key)
      }
    }
    var rows: [[JSONValue]] = []
    rows.reserveCapacity(objects.count)
    for object in objects {
      if object.keys == columns {
        rows.append(object.values)
      } else {
        // Looked up in a table of the row's keys (the last of repeated keys wins, as the
        // object's subscript says), not key by key through the row.
        let values = Dictionary(
          zip(object.keys, object.values), uniquingKeysWith: { _, last in last })
        rows.append(columns.map { values[$0] ?? .null })
      }
    }
    return (columns, rows)
  }
}
