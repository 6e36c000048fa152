/// Reads command-line arguments one at a time, for every parser of snm's arguments (the shell's
/// options, `snm test`/`snm check`, `snm explain`): an option's value is the text after `=`
/// (`--format=json`) or else the next argument (`--format json`).
///
/// ```swift
/// var cursor = ArgumentCursor(arguments)
/// while let argument = cursor.next() {
///   let (name, inline) = ArgumentCursor.split(argument)
///   guard let value = cursor.value(inline: inline) else { throw ... }   // needs a value
/// }
/// ```
struct ArgumentCursor: Sendable {
  /// All the arguments.
  let arguments: [String]
  /// Where the next argument is.
  private(set) var index = 0

  init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// The next argument, or nil at the end.
  mutating func next() -> String? {
    guard index < arguments.count else { return nil }
    defer { index += 1 }
    return arguments[index]
  }

  /// An option's value: `inline` when the option had one, else the next argument (read), else nil.
  mutating func value(inline: String?) -> String? {
    inline ?? next()
  }

  /// The arguments not read yet.
  var remaining: ArraySlice<String> {
    arguments[index...]
  }

  /// `--name=value` as `("--name", "value")`; any other argument as `(argument, nil)`.
  static func split(_ argument: String) -> (name: String, inline: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
