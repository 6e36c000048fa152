import Synchronization

/// What the gateway has learnt about the statements of reads it answers from the rows' columns
/// (`RESTGateway.columnsRead`): how to write each one's rows as JSON, or that Postgres must.
///
/// ```swift
/// let reads = ColumnReadCache()
/// reads.record(sql, .encoders(types: types, iso: encoder, otherDates: nil))
/// if case .encoders(let types, let iso, _) = reads.entry(sql), types == cells.types { ... }
/// ```
/// Keyed by the statement's SQL text. The column types an entry was made for are checked
/// against each answer's, so a column whose type changed is learnt again; the schema cache's
/// reload empties it (`removeAll`), and so does growing past `limit` entries.
final class ColumnReadCache: Sendable {
  enum Entry: Sendable {
    /// The rows' types, and the encoders for them when the session's dates are ISO and when they
    /// are not (nil: a date or timestamp column, which Postgres must write then).
    case encoders(types: [UInt32], iso: RowJSONEncoder, otherDates: RowJSONEncoder?)
    /// A type the gateway cannot write (a composite, a type cast to json by a function):
    /// Postgres builds the body, as for every other read.
    case postgres
  }

  static let limit = 1_024

  private let entries = Mutex<[String: Entry]>([:])

  func entry(_ sql: String) -> Entry? {
    entries.withLock { $0[sql] }
  }

  func record(_ sql: String, _ entry: Entry) {
    entries.withLock { entries in
      if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
      entries[sql] = entry
    }
  }

  /// Every entry (for tests).
  var all: [String: Entry] {
    entries.withLock { $0 }
  }

  func removeAll() {
    entries.withLock { $0.removeAll() }
  }
}
