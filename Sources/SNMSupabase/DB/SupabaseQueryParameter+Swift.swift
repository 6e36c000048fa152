extension SupabaseQueryParameter {
  /// The parameter as the Swift call that makes it: `.equal("id", UUID(...))`, `.order("name",
  /// ascending: false, nulls: .last)`.
  public func swiftExpression(style: SwiftLiteral.Style = .abbreviated) -> String {
    let text = SwiftLiteral.string
    switch kind {
    case .filter(let column, let filter):
      let call = Self.swiftFilter(column, filter, style: style)
      return filter.negated ? ".not(\(call))" : call
    case .group(let isOr, let negated, let operands, let table):
      let list = operands.map { $0.swiftExpression(style: style) }.joined(separator: ", ")
      let call =
        (isOr ? ".or([" : ".and([") + list + "]"
        + (table.map { ", referencedTable: " + text($0) } ?? "") + ")"
      return negated ? ".not(\(call))" : call
    case .select(.text(let columns), let returning):
      return (returning ? ".returning(" : ".select(") + text(columns) + ")"
    case .select(.items(let items), let returning):
      return (returning ? ".returning(" : ".select(")
        + items.map(\.swiftExpression).joined(separator: ", ")
        + ")"
    case .order(let items) where items.count == 1:
      return ".order(" + Self.swiftOrderArguments(items[0]) + ")"
    case .order(let items):
      return ".order(["
        + items.map { "SupabaseOrder(" + Self.swiftOrderArguments($0) + ")" }.joined(
          separator: ", ")
        + "])"
    case .limit(let count, let table):
      return ".limit(\(count)" + (table.map { ", referencedTable: " + text($0) } ?? "") + ")"
    case .offset(let count, let table):
      return ".offset(\(count)" + (table.map { ", referencedTable: " + text($0) } ?? "") + ")"
    case .single: return ".single"
    case .maybeSingle: return ".maybeSingle"
    case .count(let option): return ".count(.\(option.rawValue))"
    case .onConflict(let columns):
      return ".onConflict(" + columns.map(text).joined(separator: ", ") + ")"
    case .ignoreDuplicates: return ".ignoreDuplicates"
    case .mergeDuplicates: return ".mergeDuplicates"
    case .columns(let names): return ".columns([" + names.map(text).joined(separator: ", ") + "])"
    case .schema(let name): return ".schema(" + text(name) + ")"
    case .csv: return ".csv"
    case .custom(let name, let value): return ".custom(" + text(name) + ", " + text(value) + ")"
    case .head: return ".head"
    case .maxAffected(let count): return ".maxAffected(\(count))"
    case .rollback: return ".rollback"
    case .csvBody: return ".csvBody"
    case .plan(let options):
      return ".plan("
        + (options.isEmpty ? "" : "[" + options.map(text).joined(separator: ", ") + "]")
        + ")"
    case .timezone(let zone): return ".timezone(" + text(zone) + ")"
    }
  }

  private static func swiftOrderArguments(_ item: SupabaseOrder) -> String {
    var text = SwiftLiteral.string(item.column.description)
    if let ascending = item.ascending { text += ", ascending: \(ascending)" }
    if let nulls = item.nulls { text += ", nulls: " + (nulls == .first ? ".first" : ".last") }
    return text
  }

  private static func swiftFilter(
    _ column: SupabaseColumn, _ filter: Filter, style: SwiftLiteral.Style
  )
    -> String
  {
    let name = SwiftLiteral.string(column.description)
    let value: (SupabaseQueryValue) -> String = { SwiftLiteral.value($0, style: style) }
    switch (filter.op, filter.operand) {
    case (.raw(let op), .raw(let raw)):
      return
        ".filter(\(name), operator: \(SwiftLiteral.string(op)), value: \(SwiftLiteral.string(raw)))"
    case (.raw(let op), _):
      return ".filter(\(name), operator: \(SwiftLiteral.string(op)), value: ...)"
    case (.known(_, _, _), .list(let values)):
      return ".in(\(name), [" + values.map(value).joined(separator: ", ") + "])"
    case (.known(_, _, _), .isValue(let isValue)):
      return ".is(\(name), .\(isValue == .notNull ? "notNull" : isValue.rawValue))"
    case (.known(let op, _, let config), .value(let operand)) where op.isTextSearch:
      let type: String =
        switch op {
        case .plfts: ", type: .plain"
        case .phfts: ", type: .phrase"
        case .wfts: ", type: .websearch"
        default: ""
        }
      return ".textSearch(\(name), \(value(operand))"
        + (config.map { ", config: " + SwiftLiteral.string($0) } ?? "") + type + ")"
    case (.known(let op, let quantifier?, _), .value(let operand)):
      switch (op, quantifier) {
      case (.like, .any): return ".likeAny(\(name), \(value(operand)))"
      case (.like, .all): return ".likeAll(\(name), \(value(operand)))"
      case (.ilike, .any): return ".ilikeAny(\(name), \(value(operand)))"
      case (.ilike, .all): return ".ilikeAll(\(name), \(value(operand)))"
      default:
        return ".quantified(\(name), .\(op.rawValue), .\(quantifier.rawValue), \(value(operand)))"
      }
    case (.known(let op, nil, _), .value(let operand)):
      return "." + swiftName(op) + "(\(name), \(value(operand)))"
    case (.known(let op, _, _), .raw(let raw)):
      return
        ".filter(\(name), operator: \(SwiftLiteral.string(op.rawValue)), value: \(SwiftLiteral.string(raw)))"
    }
  }

  private static func swiftName(_ op: SupabaseFilterOperator) -> String {
    switch op {
    case .eq: "equal"
    case .neq: "notEqual"
    case .gt: "greaterThan"
    case .gte: "greaterThanOrEqual"
    case .lt: "lessThan"
    case .lte: "lessThanOrEqual"
    case .like, .ilike, .match, .imatch: op.rawValue
    case .in: "in"
    case .is: "is"
    case .isdistinct: "isDistinct"
    case .cs: "contains"
    case .cd: "containedBy"
    case .ov: "overlaps"
    case .sl: "strictlyLeft"
    case .sr: "strictlyRight"
    case .nxl: "notExtendingLeft"
    case .nxr: "notExtendingRight"
    case .adj: "adjacent"
    case .fts, .plfts, .phfts, .wfts: "textSearch"
    }
  }
}

extension SupabaseSelectItem {
  /// The item as Swift: `"id"`, `.all`, `.column("age", cast: "text")`,
  /// `.embed("user_info", as: "owner", "id", "name")`.
  public var swiftExpression: String {
    let text = SwiftLiteral.string
    switch self {
    case .all:
      return ".all"
    case .column(let column, nil, nil, nil, nil):
      return text(column.description)
    case .column(let column, let alias, "count", nil, let cast) where column.name.isEmpty:
      let arguments = [alias.map { "as: " + text($0) }, cast.map { "cast: " + text($0) }]
      return ".count(" + arguments.compactMap { $0 }.joined(separator: ", ") + ")"
    case .column(let column, let alias, let aggregate, let inputCast, let cast):
      return ".column(" + text(column.description) + (alias.map { ", as: " + text($0) } ?? "")
        + (aggregate.map { ", aggregate: " + text($0) } ?? "")
        + (inputCast.map { ", inputCast: " + text($0) } ?? "")
        + (cast.map { ", cast: " + text($0) } ?? "") + ")"
    case .embed(let relation, let alias, let hints, let spread, let items):
      let join = hints.last.flatMap(Join.init(rawValue:))
      let others = join == nil ? hints : hints.dropLast()
      if others.count > 1 {
        return ".embed(relation: \(text(relation)), alias: \(alias.map(text) ?? "nil"), hints: ["
          + hints.map(text).joined(separator: ", ") + "], spread: \(spread), items: ["
          + items.map(\.swiftExpression).joined(separator: ", ") + "])"
      }
      var arguments = [text(relation)]
      if let alias { arguments.append("as: " + text(alias)) }
      if let hint = others.first { arguments.append("hint: " + text(hint)) }
      if let join { arguments.append("join: ." + join.rawValue) }
      if spread { arguments.append("spread: true") }
      arguments += items.map(\.swiftExpression)
      return ".embed(" + arguments.joined(separator: ", ") + ")"
    case .raw(let raw):
      return ".raw(" + text(raw) + ")"
    }
  }
}
