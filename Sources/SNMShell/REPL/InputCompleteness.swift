/// Whether typed text ends a statement: no bracket left open, no string left open, no trailing `\`.
///
/// ```swift
/// InputCompleteness.isComplete("from user_info select *")        // true
/// InputCompleteness.isComplete("from user_info insert {\"a\":")   // false
/// ```
/// Follows the lexical rules of the language (spec §1): newlines inside `(...)`, `{...}`, `[...]` do
/// not end a statement, nor does a line ending in `\`; `#` and `--` start comments outside strings.
public enum InputCompleteness {
  /// True when `text` needs no continuation line.
  public static func isComplete(_ text: String) -> Bool {
    var depth = 0
    var quote: UInt8? = nil
    var escaped = false
    var inComment = false
    var lastSignificant: UInt8? = nil
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      defer { index += 1 }
      if inComment {
        if byte == UInt8(ascii: "\n") { inComment = false }
        continue
      }
      if let open = quote {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") && open == UInt8(ascii: "\"") {
          escaped = true
        } else if byte == open {
          quote = nil
        } else if byte == UInt8(ascii: "\n") && depth == 0 {
          // A string does not run past the end of a statement's line: the parser says so.
          quote = nil
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = byte
      case UInt8(ascii: "#"): inComment = true
      case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == byte:
        inComment = true
      case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
      default: break
      }
      if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") {
        lastSignificant = byte
      } else if byte == UInt8(ascii: "\n") {
        lastSignificant = nil
      }
    }
    if depth > 0 { return false }
    return lastSignificant != UInt8(ascii: "\\")
  }
}
