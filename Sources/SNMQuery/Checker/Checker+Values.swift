/// Checks of filter operands and of the variables a value uses.
extension Checker {
  /// Each `or`/`and` group is sent as one parameter, which filters one table: the queried one or
  /// one embed. Top-level `and` operands and negated filters are separate parameters.
  mutating func checkGroups(_ condition: Condition, topLevel: Bool) {
    switch condition {
    case .predicate: return
    case .and(let operands, _) where topLevel:
      operands.withUnsafeBufferPointer { operands in
        for index in operands.indices { checkGroups(operands[index], topLevel: true) }
      }
    case .not(.predicate, _) where topLevel:
      return
    default:
      // Most groups filter one table: found without collecting the paths.
      guard let first = Checker.firstEmbedPath(condition),
        !Checker.allOnPath(condition, first)
      else { return }
      var paths: [[String]] = []
      Checker.collectEmbedPaths(condition, into: &paths)
      guard paths.count > 1 else { return }
      let tables = paths.map { $0.isEmpty ? "the table itself" : "'\($0.joined(separator: "."))'" }
      report(
        .mixedEmbedGroup(tables), at: condition.range,
        help: "write the conditions on each table as separate 'and' conditions or groups")
    }
  }

  static func firstEmbedPath(_ condition: Condition) -> [Name]? {
    switch condition {
    case .predicate(let predicate): predicate.column.embedPath
    case .and(let operands, _), .or(let operands, _):
      operands.withUnsafeBufferPointer { $0.isEmpty ? nil : firstEmbedPath($0[0]) }
    case .not(let operand, _): firstEmbedPath(operand)
    }
  }

  /// Whether every predicate of `condition` filters the embed at `path`.
  static func allOnPath(_ condition: Condition, _ path: [Name]) -> Bool {
    switch condition {
    case .predicate(let predicate):
      predicate.column.embedPath.elementsEqual(path) { $0.text == $1.text }
    case .and(let operands, _), .or(let operands, _):
      operands.withUnsafeBufferPointer { operands in
        for index in operands.indices where !allOnPath(operands[index], path) { return false }
        return true
      }
    case .not(let operand, _): allOnPath(operand, path)
    }
  }

  static func collectEmbedPaths(_ condition: Condition, into paths: inout [[String]]) {
    switch condition {
    case .predicate(let predicate):
      let path = predicate.column.embedPath.map(\.text)
      if !paths.contains(path) { paths.append(path) }
    case .and(let operands, _), .or(let operands, _):
      for operand in operands { collectEmbedPaths(operand, into: &paths) }
    case .not(let operand, _):
      collectEmbedPaths(operand, into: &paths)
    }
  }

  mutating func check(_ condition: Condition) {
    switch condition {
    case .predicate(let predicate): check(predicate)
    case .and(let operands, _), .or(let operands, _):
      // Each operand borrowed from the array's storage: `for operand in` and the array's
      // subscript copied each one out (its names, path and value retained, then released).
      operands.withUnsafeBufferPointer { operands in
        for index in operands.indices { check(operands[index]) }
      }
    case .not(let operand, _): check(operand)
    }
  }

  mutating func check(_ predicate: FilterPredicate) {
    checkNames(in: predicate.column)
    let value = predicate.value
    let op = predicate.op
    if case .null = value.value, op != .is {
      let column = predicate.column.column.text
      if op == .eq || op == .neq {
        let wantsNull = (op == .eq) != predicate.negated
        let fix = wantsNull ? "is null" : "is not null"
        report(
          .eqNull(op.rawValue), at: predicate.operatorRange.union(value.range),
          help: "write '\(column) \(fix)'")
      } else {
        report(
          .nullComparison(op.rawValue), at: value.range,
          help: "to test for NULL, write '\(column) is null' or '\(column) is not null'")
      }
      return
    }
    checkVariables(in: value)
    if case .variable = value.value { return }
    // Spelled for a message only: most predicates have none.
    func spelled() -> String {
      predicate.quantifier.map { "\(op.rawValue) \($0.rawValue)" } ?? op.rawValue
    }
    if predicate.quantifier != nil {
      guard case .array = value.value else {
        let spelled = spelled()
        return reportOperand(
          spelled, "an array", value, help: "for example '\(spelled) ['a%', 'b%']'")
      }
      return
    }
    switch op {
    case .in:
      guard case .list = value.value else {
        return reportOperand(
          "in", "a list in parentheses", value, help: "for example 'in (1, 2, 3)'")
      }
    case .cs, .cd, .ov:
      switch value.value {
      case .array, .object, .string: break
      default: reportOperand(spelled(), "an array, an object or a range string", value)
      }
    case .sl, .sr, .nxl, .nxr, .adj:
      guard case .string = value.value else {
        return reportOperand(spelled(), "a range in quotes", value, help: "for example '[1,10)'")
      }
    case .fts, .plfts, .phfts, .wfts:
      guard case .string = value.value else {
        return reportOperand(spelled(), "a search text in quotes", value)
      }
    default:
      if case .list = value.value {
        reportOperand(
          spelled(), "a single value", value,
          help: "to match any of several values, use 'in (...)'")
      }
    }
  }

  mutating func reportOperand(
    _ op: String, _ expected: String, _ value: ValueNode, help: String? = nil
  ) {
    report(
      .operandKind(op, expected: expected, found: value.value.kindDescription), at: value.range,
      help: help)
  }

  /// Reports every `$name` in `value` that is not bound.
  mutating func checkVariables(in value: ValueNode) {
    switch value.value {
    case .variable(let reference): checkVariable(reference)
    case .string(let literal):
      // Most strings fill nothing in: no array of their variables is made.
      guard literal.constantText == nil else { return }
      for reference in literal.variables { checkVariable(reference) }
    case .array(let elements), .list(let elements):
      // Each element and member borrowed from the array's storage (a `for` or the subscript
      // copied each one out).
      elements.withUnsafeBufferPointer { elements in
        for index in elements.indices { checkVariables(in: elements[index]) }
      }
    case .object(let members):
      members.withUnsafeBufferPointer { members in
        for index in members.indices { checkVariables(in: members[index].value) }
      }
    default: break
    }
  }

  mutating func checkVariable(_ reference: VariableRef) {
    guard !isDefined(reference.name) else { return }
    let help =
      DidYouMean.suggest(reference.name, among: defined.sorted()).map { "did you mean '$\($0)'?" }
      ?? "bind it first with 'let \(reference.name) = ...' or pass --var \(reference.name)=VALUE"
    report(.undefinedVariable(reference.spelling), at: reference.range, help: help)
  }
}
