/// What Tab can offer for the text before the cursor.
public struct CompletionResult: Equatable, Sendable {
  /// The partial word before the cursor that a candidate replaces (may be empty).
  public var word: String
  /// Whole replacements for `word`, in the order they are listed.
  public var candidates: [String]

  /// Nothing to offer.
  public static let none = CompletionResult(word: "", candidates: [])
}

/// Answers Tab at the prompt. Called on the editor's thread while the user waits: it must not block.
public protocol LineCompleter: Sendable {
  /// The completions for `textBeforeCursor` (the statement typed so far, earlier lines included).
  func complete(_ textBeforeCursor: String) -> CompletionResult
}

/// What the editor does with a completion: replace the typed word, list the choices, or beep.
enum CompletionAction: Equatable {
  /// Replace the partial word before the cursor with this text.
  case replace(String)
  case list([String])
  case beep

  /// One candidate: it replaces the word, followed by a space unless it ends in `.`, `(`, `:`, `$`.
  /// Several: their common beginning replaces the word when it is longer, else they are listed.
  init(_ result: CompletionResult) {
    let candidates = result.candidates.reduce(into: [String]()) { seen, candidate in
      if !seen.contains(candidate) { seen.append(candidate) }
    }
    guard let first = candidates.first else {
      self = .beep
      return
    }
    if candidates.count == 1 {
      let glue: Set<Character> = [".", "(", ":", "$", "/"]
      let space = first.last.map { glue.contains($0) } == true ? "" : " "
      self = .replace(first + space)
      return
    }
    let common = candidates.dropFirst().reduce(first) { Self.commonPrefix($0, $1) }
    if common.count > result.word.count {
      self = .replace(common)
    } else {
      self = .list(candidates)
    }
  }

  /// The longest beginning that `a` and `b` share.
  static func commonPrefix(_ a: String, _ b: String) -> String {
    String(zip(a, b).prefix { $0 == $1 }.map(\.0))
  }
}
