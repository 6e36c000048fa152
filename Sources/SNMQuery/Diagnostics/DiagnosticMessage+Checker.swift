/// The checker's messages: what parses but cannot be sent as written.
extension DiagnosticMessage {
  static func eqNull(_ op: String) -> Self {
    Self(id: "eq-null", "'\(op) null' compares with the string 'null', not with SQL NULL")
  }

  static func nullComparison(_ op: String) -> Self {
    Self(id: "null-comparison", "'\(op)' cannot compare with null")
  }

  static func unfilteredWrite(_ verb: String) -> Self {
    Self(id: "unfiltered-write", "'\(verb)' without 'where' would change every row")
  }

  static func bodyKind(_ verb: String, expected: String, found: String) -> Self {
    Self(id: "body-kind", "'\(verb)' needs \(expected), found \(found)")
  }

  static func whereNotAllowed(_ verb: String) -> Self {
    Self(id: "where-not-allowed", "'where' does not apply to '\(verb)'")
  }

  static var whereAllNotAllowed: Self {
    Self(id: "where-all-not-allowed", "'where all' is only for update and delete")
  }

  static func clauseNotAllowed(_ clause: String, _ verb: String) -> Self {
    Self(id: "clause-not-allowed", "'\(clause)' does not apply to '\(verb)'")
  }

  static func storageBuckets(_ buckets: [String]) -> Self {
    Self(
      id: "storage-rm-buckets",
      "one 'storage rm' removes from one bucket, not "
        + buckets.map { "'\($0)'" }.joined(separator: " and "))
  }

  static func storagePathWithoutBucket(_ path: String) -> Self {
    Self(id: "storage-path-without-bucket", "'\(path)' names no object: write bucket/path")
  }

  static func undefinedVariable(_ spelling: String) -> Self {
    Self(id: "undefined-variable", "undefined variable '\(spelling)'")
  }

  static func builtinVariable(_ name: String) -> Self {
    Self(id: "builtin-variable", "'$\(name)' is built in and cannot be bound with 'let'")
  }

  /// A count that is no whole number of at least 0: `limit -1` here, and `expect rows $n` when
  /// the script runs and `$n` holds something else (SNMShell).
  public static func notACount(_ clause: String, found: String) -> Self {
    Self(id: "not-a-count", "'\(clause)' takes a whole number of at least 0, found \(found)")
  }

  static func operandKind(_ op: String, expected: String, found: String) -> Self {
    Self(id: "operand-kind", "'\(op)' takes \(expected), found \(found)")
  }

  static func mixedEmbedGroup(_ tables: [String]) -> Self {
    Self(
      id: "mixed-embed-group",
      "a group of 'or'/'and' conditions cannot mix columns of \(tables.joined(separator: " and "))")
  }

  static func unknownAggregate(_ name: String) -> Self {
    Self(id: "unknown-aggregate", "'\(name)()' is not an aggregate PostgREST knows")
  }

  static var emptyName: Self {
    Self(id: "empty-name", "a name cannot be empty")
  }

  static func unknownTable(_ name: String) -> Self {
    Self(id: "unknown-table", "no table, view or function '\(name)' in the cached schema")
  }

  static func unknownColumn(_ name: String, table: String) -> Self {
    Self(id: "unknown-column", "no column '\(name)' in '\(table)' in the cached schema")
  }

  static func unknownFunction(_ name: String) -> Self {
    Self(id: "unknown-function", "no function '\(name)' in the cached schema")
  }
}
