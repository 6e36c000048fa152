import Foundation
import SNMQuery
import SNMSupabase
import SNMWire

/// `snm check PATH...`: parses and checks script files, and the files their `run` statements
/// name, without a network; prints every error.
///
/// ```swift
/// let code = try CheckCommand.run(paths: ["smoke/"], options: options)
/// ```
/// Returns 0 when every file is clean, 2 when anything is wrong.
public enum CheckCommand {
  /// `loader` keeps the text of every file read.
  public static func run(
    paths: [String], options: ShellOptions, output: OutputWriter = .standardOutput,
    errors: OutputWriter = .standardError, loader: ScriptLoader = ScriptLoader()
  ) throws(UsageError) -> ExitCode {
    let files = try ScriptFiles.collect(paths)
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: options.noColor)
    let variables = Set(options.variables.map(\.name))
    let schema = cachedSchema(options)
    var errorCount = 0
    var failedFiles = 0
    for file in files {
      let check: ScriptCheck
      do {
        check = ScriptCheck.check(
          file: try loader.load(file), variables: variables, loader: loader, schema: schema)
      } catch {
        errors.write("snm: \(error.description)\n")
        errorCount += 1
        failedFiles += 1
        continue
      }
      errors.write(check.rendered(colored: colour))
      errorCount += check.errorCount
      if check.hasErrors { failedFiles += 1 }
    }
    let checked = files.count == 1 ? "1 file" : "\(files.count) files"
    if errorCount > 0 {
      let what = errorCount == 1 ? "1 error" : "\(errorCount) errors"
      let whereFound = failedFiles == 1 ? "1 file" : "\(failedFiles) files"
      errors.write("\(what) in \(whereFound) (checked \(checked))\n")
    } else if !options.quiet {
      output.write("checked \(checked): no errors\n")
    }
    output.flush()
    errors.flush()
    return errorCount > 0 ? .usage : .success
  }

  /// The schema cached for the project the options name (`--url`, `SUPABASE_URL`, `--profile`,
  /// else the local project's URL), when the shell has cached one: the names `snm check` warns
  /// about. Offline: nothing is fetched.
  static func cachedSchema(
    _ options: ShellOptions,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> DatabaseSchema? {
    let named = options.url ?? environment["SUPABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    let url =
      named.flatMap { try? ProjectSelection(url: $0, key: "unused").url }
      ?? (try? ProjectSelection.resolve(options, environment: environment))?.url
      ?? URL(string: "http://127.0.0.1:54321")
    let cache = SchemaCache(directory: SchemaCache.defaultDirectory(environment: environment))
    guard let url, let data = cache.load(for: url), let document = try? JSONValue(parsing: data)
    else { return nil }
    return try? DatabaseSchema(openAPI: document)
  }
}
