/// How the rows of a request become the response body, built in Postgres
/// (Statements.hs / SqlFragment.hs `asJsonF`, `asJsonSingleF`, `asCsvF`).
enum ResultShape: Sendable, Equatable {
  /// A JSON array (`application/json`), optionally without null-valued keys.
  case array(stripNulls: Bool)
  /// One JSON object (`application/vnd.pgrst.object+json`); the gateway checks there is one row.
  case object(stripNulls: Bool)
  /// `text/csv`: a header line of column names, then one line per row.
  case csv
  /// `application/geo+json` (SqlFragment.hs `asGeoJsonF`).
  case geoJSON
  /// A database handler's aggregate or cast (`MediaHandler.custom`); bytes travel as hex.
  case custom(CustomMediaHandler)
  /// No body (HEAD, `return=minimal`).
  case none

  /// The body expression over the rows `_postgrest_t` of `source` (a CTE name); `scalar` rows
  /// hold one value in `pgrst_scalar`.
  func expression(source: String, scalar: Bool) -> String {
    let row = scalar ? "\"_postgrest_t\".\"pgrst_scalar\"" : "\"_postgrest_t\""
    func stripped(_ strip: Bool) -> String {
      strip && !scalar ? "json_strip_nulls(row_to_json(\"_postgrest_t\"))" : row
    }
    switch self {
    case .array(let strip):
      return "coalesce(json_agg(\(stripped(strip))), '[]')::text"
    case .object(let strip):
      return "coalesce((json_agg(\(stripped(strip)))->0)::text, 'null')"
    case .csv:
      let header =
        "(SELECT coalesce(string_agg(\"a\".\"k\", ','), '') FROM (SELECT json_object_keys(\"r\") AS \"k\" "
        + "FROM (SELECT row_to_json(\"hh\") AS \"r\" FROM \(source) AS \"hh\" LIMIT 1) AS \"s\") AS \"a\")"
      let text = "\"_postgrest_t\"::text"
      return header
        + " || chr(10) || coalesce(string_agg(substring(\(text), 2, length(\(text)) - 2), chr(10)), '')"
    case .geoJSON:
      return "json_build_object('type', 'FeatureCollection', 'features', "
        + "coalesce(json_agg(ST_AsGeoJSON(\"_postgrest_t\")::json), '[]'))::text"
    case .custom(let handler):
      let value: String
      if handler.isCast {
        // A function returning a media-type domain: its one value, as that type.
        value =
          "(SELECT CAST(\"pgrst_value\".\"pgrst_scalar\" AS \(handler.function.sql)) FROM \(source)"
          + " AS \"pgrst_value\" LIMIT 1)"
      } else if scalar {
        value = handler.function.sql + "(\"_postgrest_t\".\"pgrst_scalar\")"
      } else if let target = handler.target {
        value = handler.function.sql + "(\"_postgrest_t\"::" + target.sql + ")"
      } else {
        value = handler.function.sql + "(\"_postgrest_t\")"
      }
      switch handler.read {
      case .text: return "(\(value))::text"
      case .bytes: return "encode(\(value), 'hex')"
      case .send(let function): return "encode(\(function)(\(value)), 'hex')"
      }
    case .none:
      return "''"
    }
  }
}

/// How the total row count is found (`Prefer: count=...`).
enum CountMethod: String, Sendable {
  case exact, planned, estimated
}
