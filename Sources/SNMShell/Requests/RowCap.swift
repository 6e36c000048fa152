import Foundation
import SNMQuery

/// The most rows the server sends for one request, PostgREST's `db-max-rows`: 1,000 on hosted
/// projects and in `snm local` (`pgrst.db_max_rows` changes it there), another when
/// `SNM_MAX_ROWS` says so (`off`: the project has none).
///
/// ```swift
/// switch RowCap.read(environment) {
/// case .success(let cap): cap.rows      // 1000, or nil for off
/// case .failure(let invalid): report(invalid.message)
/// }
/// ```
/// snm cannot ask PostgREST for it, so an answer of exactly this many rows to a read that set no
/// limit is checked (``RowCapCheck``), and `all` asks for pages of this size (``PagedRead``).
struct RowCap: Sendable, Equatable {
  /// The environment variable that names another cap.
  static let variable = "SNM_MAX_ROWS"

  /// The cap; nil when the project has none (no answer is cut, pages are 1,000 rows).
  var rows: Int?

  /// The rows `all` asks for in one request.
  var pageRows: Int { rows ?? PageWindow.defaultRows }

  /// A value of `SNM_MAX_ROWS` that is neither a whole number of at least 1 nor `off`.
  struct Invalid: Error, Equatable {
    var message: String
  }

  /// The cap `environment` names: `SNM_MAX_ROWS`, else 1,000.
  static func read(_ environment: [String: String]) -> Result<RowCap, Invalid> {
    guard let text = environment[variable]?.trimmingCharacters(in: .whitespaces) else {
      return .success(RowCap(rows: PageWindow.defaultRows))
    }
    if text.lowercased() == "off" { return .success(RowCap(rows: nil)) }
    guard let rows = Int(text), rows >= 1 else {
      return .failure(
        Invalid(
          message: "\(variable) is '\(text)': it takes the server's row cap (db-max-rows), a "
            + "whole number of at least 1, or off"))
    }
    return .success(RowCap(rows: rows))
  }
}
