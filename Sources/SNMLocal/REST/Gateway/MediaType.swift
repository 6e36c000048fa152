/// What the client accepts (`Accept`), negotiated as PostgREST does (MediaType.hs): the first
/// acceptable type in quality order; none acceptable → 406 PGRST107.
enum MediaType: Sendable, Equatable {
  case json
  case arrayStripped
  case object(stripNulls: Bool)
  case csv
  case openAPI

  /// The `Content-Type` of the answer.
  var contentType: String {
    switch self {
    case .json: "application/json; charset=utf-8"
    case .arrayStripped: "application/vnd.pgrst.array+json; nulls=stripped; charset=utf-8"
    case .object(let strip):
      strip
        ? "application/vnd.pgrst.object+json; nulls=stripped; charset=utf-8"
        : "application/vnd.pgrst.object+json; charset=utf-8"
    case .csv: "text/csv; charset=utf-8"
    case .openAPI: "application/openapi+json; charset=utf-8"
    }
  }

  /// The body shape for rows.
  var shape: ResultShape {
    switch self {
    case .json, .openAPI: .array(stripNulls: false)
    case .arrayStripped: .array(stripNulls: true)
    case .object(let strip): .object(stripNulls: strip)
    case .csv: .csv
    }
  }

  var isSingular: Bool {
    if case .object = self { return true }
    return false
  }

  /// The type for an `Accept` header (nil or empty means JSON); `root` allows OpenAPI.
  static func negotiate(_ accept: String?, root: Bool) throws(RESTError) -> MediaType {
    guard let accept, !accept.trimmingCharacters(in: " \t").isEmpty else {
      return root ? .openAPI : .json
    }
    switch accept {
    case "application/json", "*/*": return root ? .openAPI : .json
    case "application/vnd.pgrst.object+json" where !root: return .object(stripNulls: false)
    default: break
    }
    var ranges: [(type: String, params: [String: String], quality: Double, order: Int)] = []
    for (order, item) in accept.split(separator: ",").enumerated() {
      let pieces = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
      guard let type = pieces.first?.lowercased(), !type.isEmpty else { continue }
      var params: [String: String] = [:]
      var quality = 1.0
      for piece in pieces.dropFirst() {
        let pair = piece.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: " \t\"")
        }
        guard pair.count == 2 else { continue }
        if pair[0].lowercased() == "q" {
          quality = Double(pair[1]) ?? 1
        } else {
          params[pair[0].lowercased()] = pair[1].lowercased()
        }
      }
      ranges.append((type, params, quality, order))
    }
    let sorted = ranges.filter { $0.quality > 0 }.sorted {
      $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order
    }
    for range in sorted {
      let strip = range.params["nulls"] == "stripped"
      switch range.type {
      case "*/*", "application/*": return root ? .openAPI : .json
      case "application/json": return .json
      case "application/openapi+json" where root: return .openAPI
      case "application/vnd.pgrst.object+json", "application/vnd.pgrst.object":
        if !root { return .object(stripNulls: strip) }
      case "application/vnd.pgrst.array+json", "application/vnd.pgrst.array":
        if !root { return strip ? .arrayStripped : .json }
      case "text/csv", "text/*":
        if !root { return .csv }
      default: continue
      }
    }
    throw RESTError.unacceptableMediaType(ranges.map(\.type))
  }
}
