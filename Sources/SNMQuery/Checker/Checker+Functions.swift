extension Checker {
  /// `invoke` and `request`: the variables, a function name that can be one, and a path that
  /// stays under the project's URL (`request` never sends the project's keys to another host).
  mutating func check(_ functions: FunctionsStatement) {
    for value in functions.values { checkVariables(in: value) }
    if functions.outputFile != nil { writesFile = true }
    switch functions {
    case .invoke(let call):
      if case .string(let literal) = call.function.value, let written = literal.constantText,
        let problem = Self.functionNameProblem(written)
      {
        report(
          .notAFunctionName(problem), at: call.function.range,
          help: "for example invoke hello, or invoke reports/daily for a sub-path")
      }
    case .request(let request):
      if case .string(let literal) = request.path.value, let written = literal.parts.first,
        case .text(let start) = written, !Self.isProjectPath(start)
      {
        report(
          .notAProjectPath("'\(start)'"), at: request.path.range,
          help: "request sends the project's keys, so only to the project: write the path, as in"
            + " '/rest/v1/dog_profile?select=id'")
      }
    }
  }

  /// Why `name` (its first segment) is no function's name, or nil.
  static func functionNameProblem(_ name: String) -> String? {
    let first = name.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
      .split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard let head = first.unicodeScalars.first, head.isASCII, head.properties.isAlphabetic,
      first.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_"
            || $0 == "-")
      })
    else { return "'\(first)'" }
    return nil
  }

  /// Whether a path's written start keeps it under the project's URL: `/...`, never `//host`.
  static func isProjectPath(_ start: String) -> Bool {
    start.hasPrefix("/") && !start.hasPrefix("//") && !start.hasPrefix("/\\")
  }
}
