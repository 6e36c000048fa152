extension Statement {
  /// What `pick` finds in this statement, or in the statement it explains (`explain ...`) or
  /// binds (`let name = ...`), at any depth; nil when neither has it. The compilers find the
  /// statement they compile this way (`AuthCompiler.authStatement`, ...).
  public func inner<Found>(_ pick: (Statement.Kind) -> Found?) -> Found? {
    if let found = pick(kind) { return found }
    switch kind {
    case .shell(.explain(let inner, _)):
      return inner.inner(pick)
    case .let(let binding):
      guard case .statement(let inner) = binding.value else { return nil }
      return inner.inner(pick)
    default:
      return nil
    }
  }

  /// `found`, what a compiler's `inner` pick took out of this statement.
  /// - Throws: `Diagnostic` at this statement when it holds no statement of that kind.
  func requiring<Found>(_ found: Found?) throws(Diagnostic) -> Found {
    guard let found else {
      throw Diagnostic(.notARequestStatement("this statement"), at: range)
    }
    return found
  }
}
