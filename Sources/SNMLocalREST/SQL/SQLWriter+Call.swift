import SNMGateway

/// SQL for calling a function the way PostgREST does (`callPlanToQuery`): named arguments,
/// decoded from the JSON body in Postgres or bound from query parameters with the parameter's
/// catalog type; scalar results land in a `pgrst_scalar` column.
extension SQLWriter {
  /// Where a call's arguments come from.
  enum CallArguments {
    /// No arguments.
    case none
    /// A JSON object body; only the parameters named here are passed (others keep defaults).
    case jsonObject(body: String, parameters: [RoutineInfo.Parameter])
    /// The whole body is the single unnamed json/jsonb parameter.
    case wholeBody(body: String, type: String)
    /// Query-string values (`rpc` GET), already one text per parameter.
    case values([(RoutineInfo.Parameter, String)])
  }

  /// `SELECT ... FROM <call> AS pgrst_call`: the rows the function returns, as a relation, with
  /// the `computed` columns (functions of the returned table's row) taken on the call's typed row
  /// as PostgREST's `returnedColumns` takes them: on the CTE's records an overloaded one could not
  /// be chosen.
  mutating func call(_ routine: RoutineInfo, arguments: CallArguments, computed: [String] = []) {
    let scalar = routine.returnsScalar || routine.returnsVoid
    if scalar {
      append("SELECT \"pgrst_call\".\"pgrst_scalar\" FROM ")
    } else {
      append("SELECT \"pgrst_call\".*")
      for name in computed {
        append(", \"pgrst_call\".")
        identifier(name)
      }
      append(" FROM ")
    }
    switch arguments {
    case .none:
      callExpression(routine, scalar: scalar) { _ in }
    case .wholeBody(let body, let type):
      callExpression(routine, scalar: scalar) { writer in writer.bind(body, as: type) }
    case .values(let values):
      callExpression(routine, scalar: scalar) { writer in
        for (index, (parameter, value)) in values.enumerated() {
          if index > 0 { writer.append(", ") }
          if parameter.isVariadic { writer.append("VARIADIC ") }
          writer.identifier(parameter.name)
          writer.append(" := ")
          writer.bind(value, as: SQLWriter.lengthless(parameter.type))
        }
      }
    case .jsonObject(let body, let parameters):
      append("json_to_record(")
      bind(body, as: "json")
      append(") AS \"pgrst_body\"(")
      append(
        parameters.map { SQLText.identifier($0.name) + " " + SQLWriter.lengthless($0.type) }
          .joined(separator: ", "))
      append("), LATERAL ")
      callExpression(routine, scalar: scalar) { writer in
        for (index, parameter) in parameters.enumerated() {
          if index > 0 { writer.append(", ") }
          if parameter.isVariadic { writer.append("VARIADIC ") }
          writer.identifier(parameter.name)
          writer.append(" := \"pgrst_body\".")
          writer.identifier(parameter.name)
        }
      }
    }
  }

  /// A parameter's type as a cast that keeps the value's length: `format_type` names `char(n)`
  /// and `bit(n)` parameters `character` and `bit`, which as casts mean length 1 (`'abcd'::character`
  /// is `'a'`); `bpchar` and `"bit"` take any length, as the parameter itself does.
  static func lengthless(_ type: String) -> String {
    var base = Substring(type)
    var suffix = ""
    while base.hasSuffix("[]") {
      base = base.dropLast(2)
      suffix += "[]"
    }
    switch base {
    case "character": return "bpchar" + suffix
    case "bit": return "\"bit\"" + suffix
    default: return type
    }
  }

  /// `fn(args) AS pgrst_call`, or `(SELECT fn(args) AS pgrst_scalar) AS pgrst_call` for scalars.
  private mutating func callExpression(
    _ routine: RoutineInfo, scalar: Bool, _ arguments: (inout SQLWriter) -> Void
  ) {
    if scalar { append("(SELECT ") }
    append(routine.name.sql + "(")
    arguments(&self)
    append(")")
    if scalar { append(" AS \"pgrst_scalar\")") }
    append(" AS \"pgrst_call\"")
  }
}
