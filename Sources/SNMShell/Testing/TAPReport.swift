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

  /// A test description may not hold `#` (it starts a directive) or a line break; control and
  /// invisible format characters (a file's name: `evil<ESC>[2J.snm`) are written as escapes
  /// (`\u{1B}`), as the run's own `FAIL` line shows them: a TAP reader prints the description.
  /// `\` is written `\\` and `#` `\#` (TAP 14's escapes, which Perl's TAP::Parser and node's
  /// tap-parser read): with `\` as it was, a failed file named `t\# TODO.snm` read as
  /// `not ok 1 - t\\# TODO.snm`, an escaped `\` and then a TODO directive, and `prove` counted the
  /// failure as a passing to-do.
  static func description(_ path: String) -> String {
    VisibleText.escaped(path).replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "#", with: "\\#")
  }

  /// A YAML double-quoted scalar (JSON's escapes, which YAML reads the same way).
  static func quoted(_ text: String) -> String {
    "\"" + yamlScalar.escape(text) + "\""
  }

  /// C0 and C1 controls and DEL as `\xNN`; the other characters a reader is not shown raw
  /// (``VisibleTextLine/hides(_:)``: NEL and U+2028 are line breaks to YAML, U+202E reverses
  /// what follows) as `\uNNNN` or `\UNNNNNNNN`.
  static let yamlScalar = ScalarEscaping(
    ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"],
    other: { value in
      if value < 0x20 || (0x7F...0x9F).contains(value) {
        return "\\x" + ScalarEscaping.hex(value, digits: 2)
      }
      guard let scalar = Unicode.Scalar(value), VisibleTextLine.hides(scalar) else { return nil }
      let wide = value > 0xFFFF
      return (wide ? "\\U" : "\\u") + ScalarEscaping.hex(value, digits: wide ? 8 : 4)
    })
}
