import Foundation
import SNMShell

/// How option values are read and checked, for the table's options.
enum ValueParsing {
  /// `NAME=VALUE` with NAME a variable name (`[A-Za-z_][A-Za-z0-9_]*`).
  static func variable(_ text: String) throws(UsageError) -> ShellOptions.Variable {
    guard let equals = text.firstIndex(of: "=") else {
      throw UsageError("option '--var' needs NAME=VALUE, not '\(text)'")
    }
    let name = String(text[..<equals])
    let isName =
      name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
      && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    guard isName else {
      throw UsageError("'--var \(text)': '\(name)' is not a variable name (letters, digits, _)")
    }
    return .init(name: name, value: String(text[text.index(after: equals)...]))
  }

  /// A whole number in `range`.
  static func wholeNumber(_ text: String, option: String, in range: ClosedRange<Int>)
    throws(UsageError) -> Int
  {
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "option '\(option)' needs a number from \(range.lowerBound) to \(range.upperBound), "
          + "not '\(text)'")
    }
    return value
  }

  /// `path` made absolute against the working directory (`~` expanded), standardized.
  static func absolute(_ path: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
    let joined = FileManager.default.currentDirectoryPath + "/" + expanded
    return (joined as NSString).standardizingPath
  }

  /// An existing folder, made absolute.
  static func folder(_ path: String, option: String) throws(UsageError) -> String {
    let absolute = absolute(path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { throw UsageError("option '\(option)': \(absolute) is not a folder") }
    return absolute
  }
}
