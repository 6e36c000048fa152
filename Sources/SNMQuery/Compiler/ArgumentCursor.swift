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
public struct ArgumentCursor: Sendable {
  /// All the arguments.
  public let arguments: [String]
  /// Where the next argument is.
  public private(set) var index = 0

  public init(_ arguments: [String]) {
    self.arguments = arguments
  }

  /// The next argument, or nil at the end.
  public mutating func next() -> String? {
    guard index < arguments.count else { return nil }
    defer { index += 1 }
    return arguments[index]
  }

  /// An option's value: `inline` when the option had one, else the next argument (read), else nil.
  public mutating func value(inline: String?) -> String? {
    inline ?? next()
  }

  /// The arguments not read yet.
  public var remaining: ArraySlice<String> {
    arguments[index...]
  }

  /// `--name=value` as `("--name", "value")`; any other argument as `(argument, nil)`.
  public static func split(_ argument: String) -> (name: String, inline: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
