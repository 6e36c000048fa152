/// Finding the function an `rpc` call names, by name and argument names, as PostgREST does.
extension SchemaCache {
  /// The overload of `name` that takes exactly these argument names (required ones present,
  /// no unknown ones). With `wholeBody`, a function with a single unnamed json/jsonb parameter
  /// also matches.
  ///
  /// Throws 404 PGRST202 ("Could not find the function public.f(a, b) in the schema cache")
  /// with a "Perhaps you meant" hint, or 300 PGRST203 when several overloads match.
  func routine(
    _ name: QualifiedName, argumentNames: Set<String>, wholeBody: Bool
  ) throws(RESTError) -> RoutineInfo {
    let overloads = routines[name] ?? []
    var matches = overloads.filter { $0.accepts(argumentNames: argumentNames) }
    if matches.isEmpty && wholeBody {
      matches = overloads.filter(\.takesWholeBody)
    }
    if matches.count == 1 { return matches[0] }
    if matches.count > 1 {
      throw RESTError.ambiguousFunction(matches)
    }
    let keys = argumentNames.sorted()
    let list = keys.joined(separator: ", ")
    let signature = keys.isEmpty ? " without parameters" : "(\(list))"
    var details = "Searched for the function \(name)"
    details +=
      keys.isEmpty
      ? " without parameters"
      : " with parameter\(keys.count > 1 ? "s" : "") \(list)"
    if wholeBody { details += " or with a single unnamed json/jsonb parameter" }
    details += ", but no matches were found in the schema cache."
    var hint: String? = nil
    if overloads.isEmpty {
      let names = Set(routines.keys.filter { $0.schema == name.schema }.map(\.name))
      hint = FuzzyMatch.best(name.name, among: names.sorted(), minimum: 0.33).map {
        "Perhaps you meant to call the function \(name.schema).\($0)"
      }
    } else {
      let described = overloads.map {
        "(" + $0.parameters.map(\.name).sorted().joined(separator: ", ") + ")"
      }
      hint = FuzzyMatch.best("(\(list))", among: described, minimum: 0.33).map {
        "Perhaps you meant to call the function \(name)\($0)"
      }
    }
    throw RESTError(
      status: 404, code: "PGRST202",
      message: "Could not find the function \(name)\(signature) in the schema cache",
      details: .string(details), hint: .optional(hint))
  }
}
