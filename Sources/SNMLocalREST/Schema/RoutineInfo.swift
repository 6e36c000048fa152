/// A function of an exposed schema that `rpc` can call.
struct RoutineInfo: Sendable {
  /// One input parameter.
  struct Parameter: Sendable {
    var name: String
    /// `format_type(type, NULL)`.
    var type: String
    var isRequired: Bool
    var isVariadic: Bool = false
  }

  /// What the function returns.
  enum Returns: Sendable {
    /// A base, domain, enum or array type: `integer`, `text[]`.
    case scalar(type: String)
    /// A table's row type, a composite type, or a record of OUT/TABLE parameters.
    case composite(relation: QualifiedName?, columns: [ColumnInfo])
    case void
  }

  enum Volatility: String, Sendable {
    case immutable = "i", stable = "s", volatile = "v"
  }

  var name: QualifiedName
  var parameters: [Parameter]
  var returns: Returns
  var returnsSet: Bool
  var volatility: Volatility
  var comment: String?
  /// The function's own `SET` settings that a call applies to its transaction first (PostgREST's
  /// hoisted function settings): `statement_timeout` and the others of
  /// `pgrst.db_hoisted_tx_settings`, in their order.
  var settings: [(name: String, value: String)] = []

  var returnsScalar: Bool {
    if case .scalar = returns { return true }
    return false
  }

  var returnsVoid: Bool {
    if case .void = returns { return true }
    return false
  }

  /// The table the function returns rows of (`SETOF user_info`), for embedding and OpenAPI.
  var returnedRelation: QualifiedName? {
    if case .composite(let relation, _) = returns { return relation }
    return nil
  }

  /// `schema.name(a => integer, b => text)` as PostgREST lists candidates.
  var signatureDescription: String {
    name.description + "("
      + parameters.map { "\($0.name) => \($0.type)" }.joined(separator: ", ") + ")"
  }

  /// Whether this overload accepts exactly the argument names given (all required ones present,
  /// none unknown).
  func accepts(argumentNames: Set<String>) -> Bool {
    let names = Set(parameters.map(\.name))
    guard argumentNames.isSubset(of: names) else { return false }
    return parameters.allSatisfy { !$0.isRequired || argumentNames.contains($0.name) }
  }

  /// A single unnamed `json`/`jsonb` parameter takes the whole body.
  var takesWholeBody: Bool {
    parameters.count == 1 && parameters[0].name.isEmpty
      && (parameters[0].type == "json" || parameters[0].type == "jsonb")
  }
}

extension RESTError {
  /// 300 PGRST203: several overloads of a function match the arguments.
  static func ambiguousFunction(_ candidates: [RoutineInfo]) -> RESTError {
    RESTError(
      status: 300, code: "PGRST203",
      message: "Could not choose the best candidate function between: "
        + candidates.map(\.signatureDescription).joined(separator: ", "),
      hint: .string(
        "Try renaming the parameters or the function itself in the database so function overloading can be resolved"
      ))
  }
}
