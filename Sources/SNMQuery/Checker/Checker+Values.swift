/// Checks of filter operands and of the variables a value uses.
extension Checker {
  /// Each `or`/`and` group is sent as one parameter, which filters one table: the queried one or
  /// one embed. Top-level `and` operands and negated filters are separate parameters.
  mutating func checkGroups(_ condition: Condition, topLevel: Bool) {
    checkGroups(condition, condition.index, topLevel: topLevel)
  }

  // The readers below walk the tree by node index, the view borrowed: `shape` and `operands`
  // make a view of each node, and copy a predicate out of its node.

  private mutating func checkGroups(_ tree: Condition, _ node: Int, topLevel: Bool) {
    switch tree.kind(at: node) {
    case .predicate: return
    case .and where topLevel:
      var operand: Int? = tree.operand(of: node)
      while let current = operand {
        checkGroups(tree, current, topLevel: true)
        operand = tree.next(after: current)
      }
    case .not where topLevel && tree.kind(at: tree.operand(of: node)) == .predicate:
      return
    default:
      // Most groups filter one table: found without collecting the paths.
      guard let first = Checker.firstEmbedPath(tree, node), !Checker.allOnPath(tree, node, first)
      else { return }
      var paths: [[String]] = []
      Checker.collectEmbedPaths(tree, node, into: &paths)
      guard paths.count > 1 else { return }
      let tables = paths.map { $0.isEmpty ? "the table itself" : "'\($0.joined(separator: "."))'" }
      report(
        .mixedEmbedGroup(tables), at: tree.node(node).range,
        help: "write the conditions on each table as separate 'and' conditions or groups")
    }
  }

  private static func firstEmbedPath(_ tree: Condition, _ node: Int) -> [Name]? {
    tree.kind(at: node) == .predicate
      ? tree.withPredicate(at: node) { $0.column.embedPath }
      : firstEmbedPath(tree, tree.operand(of: node))
  }

  /// Whether every predicate under `node` filters the embed at `path`.
  private static func allOnPath(_ tree: Condition, _ node: Int, _ path: [Name]) -> Bool {
    if tree.kind(at: node) == .predicate {
      return tree.withPredicate(at: node) { samePath($0.column.embedPath, path) }
    }
    var operand: Int? = tree.operand(of: node)
    while let current = operand {
      if !allOnPath(tree, current, path) { return false }
      operand = tree.next(after: current)
    }
    return true
  }

  /// Whether two embed paths name the same embeds, compared by their names' texts: by their
  /// counts first, as most paths are empty (`elementsEqual` set up two iterators and a closure
  /// for each predicate of an `or` group, about 70 instructions a predicate).
  @inline(__always) private static func samePath(_ one: [Name], _ other: [Name]) -> Bool {
    guard one.count == other.count else { return false }
    var index = 0
    while index < one.count {
      if one[index].text != other[index].text { return false }
      index &+= 1
    }
    return true
  }

  private static func collectEmbedPaths(
    _ tree: Condition, _ node: Int, into paths: inout [[String]]
  ) {
    if tree.kind(at: node) == .predicate {
      let path = tree.withPredicate(at: node) { $0.column.embedPath.map(\.text) }
      if !paths.contains(path) { paths.append(path) }
      return
    }
    var operand: Int? = tree.operand(of: node)
    while let current = operand {
      collectEmbedPaths(tree, current, into: &paths)
      operand = tree.next(after: current)
    }
  }

  mutating func check(_ condition: Condition) { check(condition, condition.index) }

  private mutating func check(_ tree: Condition, _ node: Int) {
    if tree.kind(at: node) == .predicate { return tree.withPredicate(at: node) { check(&$0) } }
    // A `not`'s operand has no next.
    var operand: Int? = tree.operand(of: node)
    while let current = operand {
      check(tree, current)
      operand = tree.next(after: current)
    }
  }

  /// Checks a predicate lent in place (`inout`, never written: a value was copied out of the
  /// tree's array, 170 bytes a predicate, to be passed).
  mutating func check(_ predicate: inout FilterPredicate) {
    checkNames(in: predicate.column)
    let op = predicate.op
    if case .null = predicate.value.value, op != .is {
      let column = predicate.column.column.text
      if op == .eq || op == .neq {
        let wantsNull = (op == .eq) != predicate.negated
        let fix = wantsNull ? "is null" : "is not null"
        report(
          .eqNull(op.rawValue), at: predicate.operatorRange.union(predicate.value.range),
          help: "write '\(column) \(fix)'")
      } else {
        report(
          .nullComparison(op.rawValue), at: predicate.value.range,
          help: "to test for NULL, write '\(column) is null' or '\(column) is not null'")
      }
      return
    }
    checkVariables(in: predicate.value)
    if case .variable = predicate.value.value { return }
    // Spelled for a message only: most predicates have none.
    func spelled() -> String {
      predicate.quantifier.map { "\(op.rawValue) \($0.rawValue)" } ?? op.rawValue
    }
    if predicate.quantifier != nil {
      guard case .array = predicate.value.value else {
        let spelled = spelled()
        return reportOperand(
          spelled, "an array", predicate.value, help: "for example '\(spelled) ['a%', 'b%']'")
      }
      return
    }
    switch op {
    case .in:
      guard case .list = predicate.value.value else {
        return reportOperand(
          "in", "a list in parentheses", predicate.value, help: "for example 'in (1, 2, 3)'")
      }
    case .cs, .cd, .ov:
      switch predicate.value.value {
      case .array, .object, .string: break
      default: reportOperand(spelled(), "an array, an object or a range string", predicate.value)
      }
    case .sl, .sr, .nxl, .nxr, .adj:
      guard case .string = predicate.value.value else {
        return reportOperand(
          spelled(), "a range in quotes", predicate.value, help: "for example '[1,10)'")
      }
    case .fts, .plfts, .phfts, .wfts:
      guard case .string = predicate.value.value else {
        return reportOperand(spelled(), "a search text in quotes", predicate.value)
      }
    default:
      if case .list = predicate.value.value {
        reportOperand(
          spelled(), "a single value", predicate.value,
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
      // Each element and member lent in place (a `for`, the subscript and an unsafe buffer's
      // subscript each copied it out: a value's strings retained and released).
      for index in elements.indices {
        elements.withBorrowedElement(at: index) { checkVariables(in: $0) }
      }
    case .object(let members):
      for index in members.indices {
        members.withBorrowedElement(at: index) { checkVariables(in: $0.value) }
      }
    default: break
    }
  }

  mutating func checkVariable(_ reference: VariableRef) {
    if environment != nil { checkEnvironment(reference) }
    guard !isDefined(reference.name) else { return }
    let help =
      DidYouMean.suggest(reference.name, among: defined.sorted()).map { "did you mean '$\($0)'?" }
      ?? "bind it first with 'let \(reference.name) = ...' or pass --var \(reference.name)=VALUE"
    report(.undefinedVariable(reference.spelling), at: reference.range, help: help)
  }

  /// `$env.NAME` when the environment the script runs with does not hold NAME (and no `expect
  /// $env.NAME exists` guards it): found before anything is sent, where it failed only when its
  /// statement ran, after the statements before it were sent.
  private mutating func checkEnvironment(_ reference: VariableRef) {
    guard let environment, reference.name == "env", case .field(let name)? = reference.path.first,
      environment[name] == nil, !guardedEnvironment.contains(name)
    else { return }
    report(
      .environmentNotSet(name), at: reference.range,
      help: "export \(name)=... before running snm, or guard it with 'expect $env.\(name) exists'")
  }
}
