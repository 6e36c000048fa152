/// Finding the function a raw body calls: `text/plain`, `text/xml` and
/// `application/octet-stream` bodies go whole to a function's single unnamed `text`, `xml` or
/// `bytea` parameter (Plan.hs `findProc`, `hasSingleUnnamedParam`).
extension SchemaCache {
  /// The overload of `name` with one unnamed parameter of the type `media` carries.
  ///
  /// Throws 404 PGRST202 "Could not find the function public.f in the schema cache" (details:
  /// "... with a single unnamed text parameter ..."), or 300 PGRST203 for several.
  func routine(_ name: QualifiedName, rawBody media: MediaType) throws(RESTError) -> RoutineInfo {
    let type = Self.rawParameterType(media) ?? "text"
    let matches = (routines[name] ?? []).filter { routine in
      routine.parameters.count == 1 && routine.parameters[0].name.isEmpty
        && routine.parameters[0].type == type
    }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 {
      throw RESTError.ambiguousFunction(matches)
    }
    throw RESTError(
      status: 404, code: "PGRST202",
      message: "Could not find the function \(name) in the schema cache",
      details: .string(
        "Searched for the function \(name) with a single unnamed \(type) parameter, but no matches were found in the schema cache."
      ))
  }

  /// The parameter type a raw body of `media` goes to; nil for other media types.
  static func rawParameterType(_ media: MediaType) -> String? {
    switch media {
    case .textPlain: "text"
    case .textXML: "xml"
    case .octetStream: "bytea"
    default: nil
    }
  }
}
