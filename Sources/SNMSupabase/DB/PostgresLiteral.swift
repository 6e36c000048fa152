/// The quoting rules of postgrest-protocol.md §2.5, in one place.
///
/// - Top-level operands are never quoted (``SupabaseQueryValue/rendered``).
/// - Elements of `in.(...)` lists, `or=(...)`/`and=(...)` operands and array literals are
///   double-quoted, with `\` before `"` and `\`, when they contain `,` `(` `)` `"` `\` `{` `}`, start
///   or end with whitespace, or are empty.
/// - Names outside `A-Z a-z 0-9 _ $` are double-quoted the same way.
public enum PostgresLiteral {
  /// Quotes `text` when PostgREST or Postgres would otherwise split or strip it.
  ///
  /// ```swift
  /// PostgresLiteral.element("a,b")   // "\"a,b\""
  /// PostgresLiteral.element("c")     // "c"
  /// ```
  public static func element(_ text: String) -> String {
    needsQuotes(text) ? quoted(text) : text
  }

  /// A Postgres array literal: `{a,"b,c",NULL,{1,2}}`. `nil` elements and JSON nulls are `NULL`;
  /// a string spelled `NULL` (any case) is quoted so it stays a string.
  public static func array(_ elements: [SupabaseQueryValue]) -> String {
    let items = elements.map { element -> String in
      if element.isNull { return "NULL" }
      if let nested = element.arrayElements { return array(nested) }
      let text = element.rendered
      return needsQuotes(text) || text.uppercased() == "NULL" ? quoted(text) : text
    }
    return "{" + items.joined(separator: ",") + "}"
  }

  /// An `in` list: `(1,2,"a,b")`. Every element is quoted when needed (array literals included:
  /// the list grammar ends an unquoted element at the first `,`).
  public static func list(_ elements: [SupabaseQueryValue]) -> String {
    "(" + elements.map { element($0.rendered) }.joined(separator: ",") + ")"
  }

  /// One operand value inside `or=(...)`/`and=(...)`: quoted when needed, except flat array
  /// literals, which the tree grammar reads whole (`tags.cs.{a,b}`).
  static func treeOperand(_ value: SupabaseQueryValue) -> String {
    let text = value.rendered
    if let elements = value.arrayElements, !elements.contains(where: { $0.arrayElements != nil }),
      !text.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
    {
      return text
    }
    return element(text)
  }

  /// A column, table, alias or relation name: bare when it is only `A-Z a-z 0-9 _ $`, else quoted.
  ///
  /// ```swift
  /// PostgresLiteral.name("first name")   // "\"first name\""
  /// ```
  public static func name(_ name: String) -> String {
    let bare =
      !name.isEmpty
      && name.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
          true
        default: false
        }
      }
    return bare ? name : quoted(name)
  }

  /// `"text"` with `\` before every `"` and `\`.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      if character == "\"" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result + "\""
  }

  static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.first, let last = text.last else { return true }
    if first.isWhitespace || last.isWhitespace { return true }
    return text.contains { ",()\"\\{}".contains($0) }
  }
}
