import SNMLocal
import SNMShell

/// The words after `snm local logs` and `snm local functions`, checked before anything runs.
///
/// ```swift
/// try LocalWords.check(.logs, ["functions", "hello"])   // ["functions", "hello"]
/// try LocalWords.check(.functions, ["new"])             // UsageError: needs a name
/// ```
enum LocalWords {
  static func check(_ action: LocalCommand.Action, _ words: [String]) throws(UsageError)
    -> [String]
  {
    switch action {
    case .logs:
      guard words.first == "functions" else {
        throw UsageError("usage: snm local logs functions [NAME]")
      }
      guard words.count <= 2 else {
        throw UsageError("unexpected argument '\(words[2])' after 'snm local logs functions'")
      }
    case .functions:
      guard words.first == "new", words.count == 2 else {
        throw UsageError("usage: snm local functions new NAME")
      }
      guard FunctionNames.isValid(words[1]) else {
        throw UsageError(
          "'\(words[1])' is no function name: a letter, then letters, digits, _ or -")
      }
    case .idp:
      guard words == ["token"] else {
        throw UsageError(
          "usage: snm local idp token --provider apple --email ADDRESS [--nonce RAW]")
      }
    default:
      break
    }
    return words
  }
}
