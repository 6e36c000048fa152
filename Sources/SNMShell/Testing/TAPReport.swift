import SNMWire

/// The TAP version 13 report: a plan, then `ok`/`not ok` per script file, with a YAML block saying
/// where and why a file failed.
///
/// ```
/// TAP version 13
/// 1..2
/// ok 1 - smoke/sign-in.snm
/// not ok 2 - failing/rows.snm
///   ---
///   exit_code: 1
///   failures:
///     - kind: expectation
///       location: "failing/rows.snm:3:1"
///       ...
///   ...
/// ```
/// No durations: the report is the same from run to run. A comment after the plan names the
/// target (`# target: http://127.0.0.1:54321 (publishable key, from --local)`).
enum TAPReport {
  static func render(_ results: [ScriptResult], target: RunTarget?) -> String {
    var tap = "TAP version 13\n1..\(results.count)\n"
    if let target { tap += "# " + description(target.line) + "\n" }
    for (index, result) in results.enumerated() {
      let number = index + 1
      let name = description(result.path)
      if result.skipped {
        tap += "ok \(number) - \(name) # SKIP not run: the run was interrupted\n"
        continue
      }
      guard !result.passed else {
        tap += "ok \(number) - \(name)\n"
        continue
      }
      tap += "not ok \(number) - \(name)\n"
      tap += "  ---\n"
      tap += "  exit_code: \(result.exitCode.rawValue)\n"
      tap += "  failures:\n"
      for failure in result.failures {
        tap += "    - kind: \(failure.kind.rawValue)\n"
        tap += "      location: \(quoted(failure.location))\n"
        tap += "      statement: \(quoted(failure.statement))\n"
        tap += "      message: \(quoted(failure.message))\n"
        if let expected = failure.expected { tap += "      expected: \(quoted(expected))\n" }
        if let found = failure.found { tap += "      found: \(quoted(found))\n" }
      }
      if !result.trace.isEmpty {
        tap += "  trace:\n"
        for line in result.trace { tap += "    - \(quoted(line))\n" }
      }
      tap += "  ...\n"
    }
    return tap
  }

  /// A test description may not hold `#` (it starts a directive) or a line break.
  static func description(_ path: String) -> String {
    path.replacingOccurrences(of: "#", with: "\\#").replacingOccurrences(of: "\n", with: " ")
  }

  /// A YAML double-quoted scalar (JSON's escapes, which YAML reads the same way).
  static func quoted(_ text: String) -> String {
    "\"" + yamlScalar.escape(text) + "\""
  }

  static let yamlScalar = ScalarEscaping(
    ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"],
    other: { $0 < 0x20 || $0 == 0x7F ? "\\x" + ScalarEscaping.hex($0, digits: 2) : nil })
}
