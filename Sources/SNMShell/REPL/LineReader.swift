/// What a line reader hands back for one prompt.
public enum LineInput: Equatable, Sendable {
  /// A line as typed, without its line terminator.
  case line(String)
  /// Ctrl-C at the prompt: the statement being typed is abandoned.
  case interrupted
  /// Ctrl-D on an empty line, or the end of standard input.
  case end
  /// Standard input could not be read on (a device's EIO, a closed descriptor, bytes that are
  /// not UTF-8): the input ends here, as a failure, not as its end.
  case unreadable(ScriptLoadError)

  /// Whether nothing more comes after this.
  var endsInput: Bool {
    switch self {
    case .end, .unreadable: true
    case .line, .interrupted: false
    }
  }
}

/// Reads the lines of statements, from a person at a terminal or from a pipe.
///
/// ```swift
/// let reader: any LineReader = Terminal.isInteractive ? try LibEditLineReader(...) : PlainLineReader()
/// while case .line(let text) = reader.readLine(prompt: "snm> ") { ... }
/// ```
/// `readLine` blocks its thread; the shell calls it off the cooperative pool.
public protocol LineReader: Sendable {
  /// Shows `prompt` (when the reader shows prompts) and waits for one line. `pending` is the
  /// unfinished statement typed on earlier lines, for completion.
  func readLine(prompt: String, pending: String) -> LineInput
  /// Offers a whole statement to the history; readers without history ignore it.
  func remember(_ statement: String)
  /// Whether a person is typing: prompts, colour and editing make sense.
  var isInteractive: Bool { get }
  /// The shell stops while `readLine` waits (SIGTERM): hands the terminal back as it was before
  /// the line, with the cursor on a fresh line. `readLine` may go on waiting; the process ends.
  func abandonLine()
  /// Runs `print`, which writes whole lines to the terminal, where it does not garble a line
  /// being edited: while the editor waits, on its thread, above the line, which is drawn again
  /// below as it was. Readers that edit no line run it at once.
  func printAboveLine(_ print: @escaping @Sendable () -> Void)
}

extension LineReader {
  /// Readers that leave the terminal alone have nothing to hand back.
  public func abandonLine() {}

  /// Readers that edit no line have nothing to draw again.
  public func printAboveLine(_ print: @escaping @Sendable () -> Void) { print() }

  /// Reads the first line of a statement.
  public func readLine(prompt: String) -> LineInput {
    readLine(prompt: prompt, pending: "")
  }
}
