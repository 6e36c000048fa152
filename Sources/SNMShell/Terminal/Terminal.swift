import Foundation
import SNMSupabase

/// Facts about the terminal snm runs in: whether a stream is one, its size, whether to colour.
///
/// ```swift
/// if Terminal.isTerminal(STDOUT_FILENO) { width = Terminal.columns() }
/// ```
public enum Terminal {
  /// Whether `fd` is a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool {
    isatty(fd) != 0
  }

  /// The terminal's width in columns (standard output, else standard error), else `$COLUMNS`, else 80.
  public static func columns(environment: [String: String] = ProcessEnvironment.current)
    -> Int
  {
    if let size = windowSize(), size.columns > 0 { return size.columns }
    if let text = environment["COLUMNS"], let value = Int(text), value > 0 { return value }
    return 80
  }

  /// The terminal's height in rows, else `$LINES`, else 24.
  public static func rows(environment: [String: String] = ProcessEnvironment.current)
    -> Int
  {
    if let size = windowSize(), size.rows > 0 { return size.rows }
    if let text = environment["LINES"], let value = Int(text), value > 0 { return value }
    return 24
  }

  /// Colour is used only when `fd` is a terminal, `NO_COLOR` is unset or empty, `TERM` is not
  /// `dumb`, and the user did not pass `--no-color`.
  public static func usesColour(
    fd: Int32, disabled: Bool = false,
    environment: [String: String] = ProcessEnvironment.current
  ) -> Bool {
    if disabled { return false }
    if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return isTerminal(fd)
  }

  private static func windowSize() -> (columns: Int, rows: Int)? {
    for fd in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO] {
      var size = winsize()
      if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
        return (Int(size.ws_col), Int(size.ws_row))
      }
    }
    return nil
  }
}
