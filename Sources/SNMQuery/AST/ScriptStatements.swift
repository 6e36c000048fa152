/// `let name = <query or rpc>` binds the decoded result; `let name = <value>` binds a value.
public struct LetStatement: Sendable, Equatable {
  public var name: Name
  public var value: Binding

  public indirect enum Binding: Sendable, Equatable {
    case statement(Statement)
    case value(ValueNode)
  }
}

/// `expect ...`: a check on the last result.
public enum ExpectStatement: Sendable, Equatable {
  /// `expect rows [cmp] N`
  case rows(Comparison, ValueNode)
  /// `expect status [cmp] N`
  case status(Comparison, ValueNode)
  /// `expect error [code]`
  case error(code: ValueNode?)
  /// `expect <value> <cmp> <value>`
  case compare(ValueNode, Comparison, ValueNode)
  /// `expect count [cmp] N`: the total the last answer's `Content-Range` gave (`count exact`)
  case count(Comparison, ValueNode)
  /// `expect header Content-Range == '0-9/42'`: a header of the last answer
  case header(name: String, Comparison, ValueNode)
  /// `expect time < 300ms`: how long the last request took
  case time(Comparison, DurationValue)
  /// `expect $dog.walks count [cmp] 3`: how many elements (or members, or characters) a value has
  case valueCount(ValueNode, Comparison, ValueNode)
  /// `expect $dog.photo exists` / `not exists`: the path leads to a value (null counts)
  case exists(ValueNode, negated: Bool)
  /// `expect $dog.age is number` / `is not null`: the JSON kind of a value
  case isKind(ValueNode, ValueKind, negated: Bool)
  /// `<expectation> within 10s [every 500ms]`: the statement before is sent again until it holds
  indirect case within(ExpectStatement, timeout: DurationValue, interval: DurationValue?)
}

/// The kinds `expect ... is` tells apart.
public enum ValueKind: String, Sendable, Equatable, CaseIterable {
  case string, number, boolean, null, object, array, uuid, date
}

/// The comparisons of `expect`.
public enum Comparison: String, Sendable, Equatable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessEqual = "<="
  case greater = ">"
  case greaterEqual = ">="
  case contains
  case matches
}

/// `echo <value>`; in an echo string `$name.field` is filled in as well as `${name}`.
public struct EchoStatement: Sendable, Equatable {
  public var value: ValueNode
}

/// `run <file>` or `\i <file>`.
public struct RunStatement: Sendable, Equatable {
  public var path: String
  public var pathRange: SourceRange
}
