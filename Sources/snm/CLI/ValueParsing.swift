import Foundation
import SNMQuery
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

  /// Checks that `words` are the one word `snm COMMAND` takes, alone (`snm session token`,
  /// `snm gen swift`).
  /// - Throws: `UsageError` for no word ("'snm gen' needs a language: swift"), another word
  ///   ("unknown language 'x' for 'snm gen': swift") or a word after it.
  static func onlyWord(
    _ word: String, in words: [String], after command: String, naming what: String
  ) throws(UsageError) {
    guard let first = words.first else {
      throw UsageError("'snm \(command)' needs a \(what): \(word)")
    }
    guard first == word else {
      throw UsageError("unknown \(what) '\(first)' for 'snm \(command)': \(word)")
    }
    if let extra = words.dropFirst().first {
      throw UsageError("unexpected argument '\(extra)' after 'snm \(command) \(word)'")
    }
  }

  /// `path` made absolute against the working directory (`~/` the home folder, as ``LocalPath``
  /// takes it), standardized.
  static func absolute(_ path: String) -> String {
    let expanded = LocalPath.resolve(path, directory: FileManager.default.currentDirectoryPath)
    return (expanded as NSString).standardizingPath
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
