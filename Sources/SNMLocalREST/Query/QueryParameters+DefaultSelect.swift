extension QueryParameters {
  /// Whether the select is the default whole row (`*`, or no `select=`), the only one a
  /// relation's own media handler applies to (Plan.hs `hasDefaultSelect`).
  var hasDefaultSelect: Bool {
    guard select.count == 1, case .field(let field) = select[0] else { return false }
    return field.isStar && field.alias == nil && field.cast == nil && field.aggregate == nil
  }
}
