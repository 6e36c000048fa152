/// `snm local start|stop|status|reset|serve [--dir D] [--port P] [--migrations DIR]
/// [--jwt-expiry S] [--json]`.
///
/// ```swift
/// exit(LocalCommand.run(["status", "--json"]))
/// ```
/// Prints to stdout and stderr; returns the exit code (0, 1, 2 usage, 3 unavailable).
public enum LocalCommand {
  public static func run(_ arguments: [String]) -> Int32 {
    printError("snm local: not built yet")
    return 3
  }
}
