/// Canonical text of the CI statements' parts (Statement+Canonical.swift).
extension ExpectStatement {
  /// After `expect `: the forms of AST/ScriptStatements.swift past the first four.
  var moreCanonicalText: String {
    switch self {
    case .rows, .status, .error, .compare:
      String(canonicalText.dropFirst("expect ".count))
    case .count(let comparison, let value):
      "count \(comparison.rawValue) \(value.value.canonicalText)"
    case .header(let name, let comparison, let value):
      "header \(Value.quoted(name)) \(comparison.rawValue) \(value.value.canonicalText)"
    case .time(let comparison, let duration):
      "time \(comparison.rawValue) \(duration.milliseconds)ms"
    case .valueCount(let left, let comparison, let right):
      "\(left.value.canonicalText) count \(comparison.rawValue) \(right.value.canonicalText)"
    case .exists(let value, let negated):
      "\(value.value.canonicalText) \(negated ? "not exists" : "exists")"
    case .isKind(let value, let kind, let negated):
      "\(value.value.canonicalText) is \(negated ? "not " : "")\(kind.rawValue)"
    case .within(let inner, let timeout, let interval):
      inner.moreCanonicalText + " within \(timeout.milliseconds)ms"
        + (interval.map { " every \($0.milliseconds)ms" } ?? "")
    }
  }
}

extension Modifiers {
  var guardsCanonicalText: String {
    var text = ""
    if rare?.head != nil { text += " head" }
    if let maxAffected = rare?.maxAffected {
      text += " max affected " + maxAffected.value.canonicalText
    }
    if rare?.rollback != nil { text += " rollback" }
    if let plan = rare?.plan { text += " plan" + plan.map { " " + $0 }.joined() }
    if rare?.all != nil { text += " all" }
    if let outputFile = rare?.outputFile {
      text += " > " + Value.string(outputFile.literal).canonicalText
    }
    return text
  }
}

extension BodyFile {
  var canonicalText: String {
    (format == .csv ? "csv " : "file ") + Value.string(literal).canonicalText
  }
}
