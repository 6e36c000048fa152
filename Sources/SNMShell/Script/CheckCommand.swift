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
/// Returns 0 when every file is clean, 2 when anything is wrong, 130 or 143 when a signal stopped
/// the wait for a pipe (`-`, a FIFO).
public enum CheckCommand {
  /// `project` is the project the scripts would run against, when one is named or the local
  /// project was made (nothing is reached): names missing from its cached schema are warnings.
  /// `loader` keeps the text of every file read.
  public static func run(
    paths: [String], options: ShellOptions, project: ProjectSelection?,
    output: OutputWriter = .standardOutput, errors: OutputWriter = .standardError,
    loader: ScriptLoader = ScriptLoader(), follow: Bool = false
  ) throws(UsageError) -> ExitCode {
    let files = try ScriptFiles.collect(
      paths, follow: follow,
      note: {
        errors.write($0 + "\n")
        errors.flush()
      })
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: options.noColor)
    let variables = Set(options.variables.map(\.name))
    let schema = project.flatMap { cachedSchema(for: $0) }
    var errorCount = 0
    var failedFiles = 0
    // Every file is checked and counted; the first errors of all of them are shown.
    var shown = ShownDiagnostics()
    // What the files write, carried to those after them, which run after them (`snm test DIR`,
    // `snm a.snm b.snm`): a `run` of a file one of them writes is checked when it runs.
    var written = WrittenFiles()
    for file in files {
      let check: ScriptCheck
      do {
        check = ScriptCheck.check(
          file: try loader.load(file), variables: variables, loader: loader, schema: schema,
          written: written)
      } catch {
        errors.write("snm: \(error.description)\n")
        if error.exitCode != .usage {
          errors.flush()
          return error.exitCode
        }
        errorCount += 1
        failedFiles += 1
        continue
      }
      errors.write(shown.render(check, colored: colour))
      if let interruption = check.interruption {
        errors.write("snm: \(interruption.description)\n")
        errors.flush()
        return interruption.exitCode
      }
      errorCount += check.errorCount
      if check.hasErrors { failedFiles += 1 }
      written = check.written
    }
    if let tail = shown.tail { errors.write(tail) }
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

  /// The schema the shell cached for `project` (its URL and key: another project served on the
  /// same port earlier has a cache of its own), when there is one. Offline: nothing is fetched.
  static func cachedSchema(
    for project: ProjectSelection,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> DatabaseSchema? {
    let cache = SchemaCache(directory: SchemaCache.defaultDirectory(environment: environment))
    guard let data = cache.load(for: project), let document = try? JSONValue(parsing: data)
    else { return nil }
    return try? DatabaseSchema(openAPI: document)
  }
}
