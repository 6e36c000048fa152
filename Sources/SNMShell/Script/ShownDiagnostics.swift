import SNMQuery

/// The diagnostics printed for checks that failed, up to a limit of errors, as javac shows its
/// first 100: a script of 200,000 mistakes printed some 30 MB to standard error, which a CI log
/// truncates (or a terminal scrolls for minutes) long before the summary. Past the limit nothing
/// more is rendered; ``tail`` then says how many errors (and warnings) were left out, and of how
/// many. Warnings have a limit of 100 of their own. Counts and exit codes are never cut: they
/// come from the checks, not from what was shown.
///
/// ```swift
/// var shown = ShownDiagnostics()
/// for check in checks { errors.write(shown.render(check, colored: false)) }
/// if let tail = shown.tail { errors.write(tail) }
/// // snm: 199900 more errors not shown (200000 errors in all): the first 100 errors are shown,
/// // no more; fix them first
/// ```
/// The limit is fixed (``limit``): the first errors of a file are the ones to fix first, and a
/// file cleared of them is checked again in a moment.
public struct ShownDiagnostics: Sendable {
  /// The errors shown at most, across all the checks rendered with one value; the warnings shown
  /// at most, a limit of their own (javac's `-Xmaxwarns`): a data file with its table's name
  /// mistyped on every line has as many warnings as lines, and no error.
  public static let limit = 100

  /// The errors shown at most (``limit`` unless a test says), and the warnings.
  public let most: Int
  /// How many errors may still be shown.
  public private(set) var remaining: Int
  /// How many warnings may still be shown (while errors may).
  public private(set) var remainingWarnings: Int
  /// Errors and warnings left out.
  public private(set) var hiddenErrors = 0
  public private(set) var hiddenWarnings = 0
  /// Errors shown and left out, and warnings.
  public private(set) var totalErrors = 0
  public private(set) var totalWarnings = 0

  public init(limit: Int = ShownDiagnostics.limit) {
    self.most = limit
    self.remaining = limit
    self.remainingWarnings = limit
  }

  /// The diagnostics of `check` as compilers print them, in order, until the limit of errors
  /// is reached (counting those of the checks rendered before), the warnings past theirs left
  /// out on the way; the rest are counted.
  public mutating func render(_ check: ScriptCheck, colored: Bool) -> String {
    let renderer = DiagnosticRenderer(colored: colored)
    var text = ""
    for (source, diagnostics) in check.findings {
      var shown: [Diagnostic] = []
      var all = true
      for diagnostic in diagnostics {
        let isError = diagnostic.severity == .error
        let isWarning = diagnostic.severity == .warning
        if isError { totalErrors += 1 } else if isWarning { totalWarnings += 1 }
        guard remaining > 0, !isWarning || remainingWarnings > 0 else {
          if isError {
            hiddenErrors += 1
          } else if isWarning {
            hiddenWarnings += 1
          }
          all = false
          continue
        }
        if isError { remaining -= 1 } else if isWarning { remainingWarnings -= 1 }
        shown.append(diagnostic)
      }
      if all {
        text += renderer.render(diagnostics, in: source)
      } else if !shown.isEmpty {
        text += renderer.render(shown, in: source)
      }
    }
    return text
  }

  /// The line saying what was left out (`snm: 199900 more errors not shown: ...`), nil when
  /// nothing was: past the limit of errors, what the errors' limit left out; else the warnings
  /// past theirs (`snm: 19900 more warnings not shown (20000 warnings in all): ...`); past both,
  /// both (`(105 errors and 400 warnings in all): the first 100 errors and the first 100 warnings
  /// are shown, ...`).
  public var tail: String? {
    guard hiddenErrors + hiddenWarnings > 0 else { return nil }
    var left: [String] = []
    if hiddenErrors > 0 {
      left.append(hiddenErrors == 1 ? "1 more error" : "\(hiddenErrors) more errors")
    }
    if hiddenWarnings > 0 {
      left.append(hiddenWarnings == 1 ? "1 more warning" : "\(hiddenWarnings) more warnings")
    }
    let errors = totalErrors == 1 ? "1 error" : "\(totalErrors) errors"
    let warnings = totalWarnings == 1 ? "1 warning" : "\(totalWarnings) warnings"
    let notShown = "snm: \(left.joined(separator: " and ")) not shown"
    guard remaining == 0 else {
      return "\(notShown) (\(warnings) in all): the first \(most) warnings are shown, no more\n"
    }
    // Both limits reached: warnings were left out past their own limit too.
    if remainingWarnings == 0 && hiddenWarnings > 0 {
      return "\(notShown) (\(errors) and \(warnings) in all): the first \(most) errors and the "
        + "first \(most) warnings are shown, no more; fix the errors first\n"
    }
    return "\(notShown) (\(errors) in all): the first \(most) errors are shown, no more; fix "
      + "them first\n"
  }
}
