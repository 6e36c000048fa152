import Foundation

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
    var errorCount = 0
    var failedFiles = 0
    for file in files {
      let check: ScriptCheck
      do {
        check = ScriptCheck.check(file: try loader.load(file), variables: variables, loader: loader)
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
}
