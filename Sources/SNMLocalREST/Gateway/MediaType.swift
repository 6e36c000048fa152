/// A media type as PostgREST reads one (MediaType.hs `decodeMediaType`): the ones it knows by
/// name, the vendored `vnd.pgrst` ones with their parameters, and any other kept as written.
///
///     MediaType("application/vnd.pgrst.array+json;nulls=stripped")   // .arrayStripped
///     MediaType("text/plain; charset=utf-8")                         // .textPlain
///     MediaType("application/vnd.pgrst.plan+text; options=analyze")  // .plan(...)
indirect enum MediaType: Sendable, Hashable {
  case json
  case geoJSON
  case csv
  case textPlain
  case textXML
  case openAPI
  case urlEncoded
  case octetStream
  /// `*/*`.
  case any
  /// Any other type, as written (`image/png`, `text/html`).
  case other(String)
  case arrayStripped
  case object(stripNulls: Bool)
  /// `application/vnd.pgrst.plan+json|text; for="..."; options=analyze|verbose|...`.
  case plan(for: MediaType, format: PlanFormat, options: [PlanOption])

  enum PlanFormat: String, Sendable, Hashable {
    case json, text
  }

  /// `EXPLAIN` options, in the order PostgREST lists them.
  enum PlanOption: String, Sendable, Hashable, CaseIterable {
    case analyze, verbose, settings, buffers, wal
  }

  init(_ text: String) {
    let (type, subtype, parameters) = Self.tokenize(text)
    let strip = parameters["nulls"] == "stripped"
    func plan(_ format: PlanFormat) -> MediaType {
      let options = Set((parameters["options"] ?? "").split(separator: "|").map(String.init))
      return .plan(
        for: MediaType(parameters["for"] ?? "application/json"), format: format,
        options: PlanOption.allCases.filter { options.contains($0.rawValue) })
    }
    switch (type.lowercased(), subtype.lowercased()) {
    case ("application", "json"): self = .json
    case ("application", "geo+json"): self = .geoJSON
    case ("text", "csv"): self = .csv
    case ("text", "plain"): self = .textPlain
    case ("text", "xml"): self = .textXML
    case ("application", "openapi+json"): self = .openAPI
    case ("application", "x-www-form-urlencoded"): self = .urlEncoded
    case ("application", "octet-stream"): self = .octetStream
    case ("application", "vnd.pgrst.plan"), ("application", "vnd.pgrst.plan+text"):
      self = plan(.text)
    case ("application", "vnd.pgrst.plan+json"): self = plan(.json)
    case ("application", "vnd.pgrst.object+json"), ("application", "vnd.pgrst.object"):
      self = .object(stripNulls: strip)
    case ("application", "vnd.pgrst.array+json"), ("application", "vnd.pgrst.array"):
      self = strip ? .arrayStripped : .json
    case ("*", "*"): self = .any
    default: self = .other(text)
    }
  }

  /// The type as PostgREST names it (`toMime`), in errors and `Content-Type`.
  var mime: String {
    switch self {
    case .json: "application/json"
    case .geoJSON: "application/geo+json"
    case .csv: "text/csv"
    case .textPlain: "text/plain"
    case .textXML: "text/xml"
    case .openAPI: "application/openapi+json"
    case .urlEncoded: "application/x-www-form-urlencoded"
    case .octetStream: "application/octet-stream"
    case .any: "*/*"
    case .other(let text): text
    case .arrayStripped: "application/vnd.pgrst.array+json;nulls=stripped"
    case .object(let strip):
      strip
        ? "application/vnd.pgrst.object+json;nulls=stripped" : "application/vnd.pgrst.object+json"
    case .plan(let target, let format, let options):
      "application/vnd.pgrst.plan+\(format.rawValue); for=\"\(target.mime)\""
        + (options.isEmpty ? "" : "; options=" + options.map(\.rawValue).joined(separator: "|"))
    }
  }

  /// The `Content-Type` of an answer in this type: with `charset=utf-8` but for binary and
  /// unknown types (`toContentType`).
  var contentType: String {
    switch self {
    // The usual answer's, written once.
    case .json: "application/json; charset=utf-8"
    case .octetStream, .other: mime
    default: mime + "; charset=utf-8"
    }
  }

  var isSingular: Bool {
    switch self {
    case .object: true
    case .plan(let target, _, _): target.isSingular
    default: false
    }
  }

  var isPlan: Bool {
    if case .plan = self { return true }
    return false
  }

  /// The media types of an `Accept` header, most preferred first, as PostgREST orders them (wai's
  /// `parseHttpAccept`): spaces dropped, by quality then by specificity (parameters count for,
  /// wildcards against), otherwise in the order written. No header means `*/*`.
  static func accepted(_ header: String?) -> [MediaType] {
    guard let header, !header.trimmingCharacters(in: " \t").isEmpty else { return [.any] }
    let ranges = header.split(separator: ",", omittingEmptySubsequences: false).enumerated().map {
      (order, item) -> (text: String, quality: Double, specificity: Int, order: Int) in
      let compact = item.filter { $0 != " " }
      var text = compact
      var quality = 1.0
      if let mark = compact.range(of: ";q=") {
        text = String(compact[..<mark.lowerBound])
        let rest = compact[mark.upperBound...]
        quality = Double(rest.prefix { $0 != ";" }) ?? 1
      }
      let specificity =
        text.filter { $0 == ";" }.count - text.filter { $0 == "*" }.count
      return (text, quality, specificity, order)
    }
    return
      ranges
      .sorted {
        if $0.quality != $1.quality { return $0.quality > $1.quality }
        if $0.specificity != $1.specificity { return $0.specificity > $1.specificity }
        return $0.order < $1.order
      }
      .map { MediaType($0.text) }
  }

  /// `type/subtype; key=value; ...` as PostgREST's parser reads it; what does not parse is all
  /// type (so it stays an `.other`). Parameter names are lowercased.
  /// A letter, a digit, `.` or `*`: what a type or subtype may hold.
  private static func isTypeByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
  }

  private static func tokenize(_ text: String) -> (String, String, [String: String]) {
    let pieces = text.split(separator: ";", omittingEmptySubsequences: false)
    let essence = pieces[0].trimmingCharacters(in: " \t")
    guard let slash = essence.firstIndex(of: "/") else { return (text, "", [:]) }
    let type = String(essence[..<slash])
    let subtype = String(essence[essence.index(after: slash)...])
    // Compared as bytes: a character outside ASCII (or one an accent joins) is never one of these.
    guard !type.isEmpty, !subtype.isEmpty, type.utf8.allSatisfy(isTypeByte),
      subtype.utf8.allSatisfy({
        isTypeByte($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
      })
    else { return (text, "", [:]) }
    var parameters: [String: String] = [:]
    for piece in pieces.dropFirst() {
      let pair = piece.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: " \t")
      }
      guard pair.count == 2 else { continue }
      parameters[pair[0].lowercased()] = pair[1].trimmingCharacters(in: "\"")
    }
    return (type, subtype, parameters)
  }
}
