import Foundation

/// `snm local start|stop|status|reset|serve [--dir D] [--port P] [--migrations DIR]
/// [--jwt-expiry S] [--jwt-alg HS256|ES256|RS256] [--refresh-reuse-interval S] [--json]`.
///
/// ```swift
/// exit(LocalCommand.run(["status", "--json"]))
/// ```
/// Prints to stdout and stderr; returns the exit code (0, 1 failed, 2 usage, 3 unavailable).
public enum LocalCommand {
  static let usage = """
    usage: snm local start|stop|status|reset|serve [--dir D] [--port P] [--migrations DIR]
                     [--jwt-expiry SECONDS] [--jwt-alg HS256|ES256|RS256]
                     [--refresh-reuse-interval SECONDS] [--json]
    """

  public static func run(_ arguments: [String]) -> Int32 {
    do {
      let invocation = try LocalInvocation.parse(arguments)
      return try invocation.execute()
    } catch {
      printError("snm local: \(error.message)")
      if error.kind == .usage { printError(usage) }
      return error.exitCode
    }
  }
}

/// One parsed `snm local` command line.
struct LocalInvocation {
  var action: String
  var options = LocalProjectOptions()
  var given: Set<String> = []
  var json = false

  static func parse(_ arguments: [String]) throws(LocalProjectError) -> LocalInvocation {
    guard let action = arguments.first else { throw LocalProjectError(.usage, "missing a command") }
    if action == "--help" || action == "-h" || action == "help" {
      return LocalInvocation(action: "help")
    }
    guard ["start", "stop", "status", "reset", "serve"].contains(action) else {
      throw LocalProjectError(.usage, "unknown command '\(action)'")
    }
    var invocation = LocalInvocation(action: action)
    var index = 1
    func value(_ flag: String) throws(LocalProjectError) -> String {
      guard index + 1 < arguments.count else {
        throw LocalProjectError(.usage, "\(flag) needs a value")
      }
      index += 1
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      var flag = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func take() throws(LocalProjectError) -> String {
        if let inline { return inline }
        return try value(flag)
      }
      switch flag {
      case "--dir": invocation.options.dataDir = absolute(try take())
      case "--port":
        invocation.options.port = try number(try take(), flag: flag, range: 1...65535)
      case "--migrations": invocation.options.migrationsDir = absolute(try take())
      case "--jwt-expiry":
        invocation.options.jwtExpiry = try number(try take(), flag: flag, range: 1...31_536_000)
      case "--jwt-alg":
        let name = try take().uppercased()
        guard ["HS256", "ES256", "RS256"].contains(name) else {
          throw LocalProjectError(.usage, "--jwt-alg: '\(name)' is not HS256, ES256 or RS256")
        }
        invocation.options.jwtAlgorithm = name
      case "--refresh-reuse-interval":
        invocation.options.refreshReuseInterval = try number(
          try take(), flag: flag, range: 0...86_400)
      case "--json":
        invocation.json = true
        index += 1
        continue
      default:
        throw LocalProjectError(.usage, "unknown option '\(argument)'")
      }
      invocation.given.insert(String(flag.dropFirst(2)))
      index += 1
    }
    if let migrations = invocation.options.migrationsDir {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: migrations, isDirectory: &isDirectory),
        isDirectory.boolValue
      else { throw LocalProjectError(.usage, "--migrations: \(migrations) is not a folder") }
    }
    return invocation
  }

  static func number(_ text: String, flag: String, range: ClosedRange<Int>)
    throws(LocalProjectError)
    -> Int
  {
    guard let value = Int(text), range.contains(value) else {
      throw LocalProjectError(
        .usage,
        "\(flag) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'"
      )
    }
    return value
  }

  static func absolute(_ path: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
    let joined = FileManager.default.currentDirectoryPath + "/" + expanded
    return (joined as NSString).standardizingPath
  }
}
