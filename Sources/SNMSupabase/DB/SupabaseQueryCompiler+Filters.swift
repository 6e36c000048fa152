extension SupabaseQueryCompiler {
  /// `[not.]op[(any)][(config)].value`; inside a tree, operand values are quoted when needed.
  static func render(_ filter: SupabaseQueryParameter.Filter, inTree: Bool) -> String {
    var text = filter.negated ? "not." : ""
    switch filter.op {
    case .known(let op, let quantifier, let config):
      text += op.rawValue
      if let quantifier { text += "(" + quantifier.rawValue + ")" }
      if let config { text += "(" + config + ")" }
    case .raw(let name):
      text += name
    }
    text += "."
    switch filter.operand {
    case .value(let value):
      text += inTree ? PostgresLiteral.treeOperand(value) : value.rendered
    case .list(let values):
      text += PostgresLiteral.list(values)
    case .isValue(let value):
      text += value.rawValue
    case .raw(let raw):
      text += raw
    }
    return text
  }

  /// The value of `or=`/`and=` (`(a.eq.1,and(b.eq.2,c.eq.3))`) and the embed it applies to.
  static func renderGroup(
    isOr: Bool, operands: [SupabaseQueryParameter], referencedTable: String?
  ) throws(SupabaseDBError) -> (embed: String?, value: String) {
    var paths: Set<[String]> = []
    try collectEmbedPaths(operands, into: &paths)
    var embed: [String]
    if let referencedTable {
      embed = [referencedTable]
      guard paths.isSubset(of: [[], embed]) else {
        throw .invalidParameter(
          "a group for \(referencedTable) names columns of another table: "
            + paths.filter { $0 != [] && $0 != embed }.map { $0.joined(separator: ".") }.sorted()
            .joined(separator: ", "))
      }
    } else if paths.count > 1 {
      throw .invalidParameter(
        "an or/and group cannot mix columns of different embedded tables ("
          + paths.map { $0.isEmpty ? "the table itself" : $0.joined(separator: ".") }.sorted()
          .joined(separator: ", ") + ")")
    } else {
      embed = paths.first ?? []
    }
    let value = try renderOperands(operands, isOr: isOr)
    return (embed.isEmpty ? nil : embed.map(PostgresLiteral.name).joined(separator: "."), value)
  }

  private static func collectEmbedPaths(
    _ operands: [SupabaseQueryParameter], into paths: inout Set<[String]>
  ) throws(SupabaseDBError) {
    guard !operands.isEmpty else {
      throw .invalidParameter("an or/and group needs at least one condition")
    }
    for operand in operands {
      switch operand.kind {
      case .filter(let column, _):
        paths.insert(column.embedPath)
      case .group(_, _, let nested, let table):
        if let table { paths.insert([table]) }
        try collectEmbedPaths(nested, into: &paths)
      default:
        throw .invalidParameter(
          "only filters and or/and groups can go inside or(...), and(...) or not(...)")
      }
    }
  }

  private static func renderOperands(_ operands: [SupabaseQueryParameter], isOr: Bool)
    throws(SupabaseDBError) -> String
  {
    var parts: [String] = []
    for operand in operands {
      switch operand.kind {
      case .filter(let column, let filter):
        parts.append(column.withoutEmbedPath.wireName + "." + render(filter, inTree: true))
      case .group(let nestedOr, let negated, let nested, _):
        parts.append(
          (negated ? "not." : "") + (nestedOr ? "or" : "and")
            + (try renderOperands(nested, isOr: nestedOr)))
      default:
        throw .invalidParameter(
          "only filters and or/and groups can go inside or(...), and(...) or not(...)")
      }
    }
    return "(" + parts.joined(separator: ",") + ")"
  }
}
