import Foundation
import SNMWire

/// The JUnit XML report (the schema CI services read): one `<testcase>` per script file.
///
/// ```xml
/// <testcase classname="smoke" name="pair.snm" file="smoke/pair.snm" time="0.412">
///   <failure type="expectation" message="smoke/pair.snm:7:1: expectation failed: ...">...</failure>
/// </testcase>
/// ```
/// Expectation and statement failures are `<failure>`; parse errors, an unreachable project and
/// interruptions are `<error>`; files not run are `<skipped/>`. A failed file carries what it
/// printed in `<system-out>`. The suite's `<properties>` name the target: `snm.target.url`,
/// `snm.target.key` (its kind, never the key) and `snm.target.source`.
enum JUnitReport {
  static func render(_ results: [ScriptResult], target: RunTarget?) -> String {
    let failures = results.filter { !$0.skipped && !$0.passed && !isError($0) }.count
    let errors = results.filter { !$0.skipped && isError($0) }.count
    let skipped = results.filter(\.skipped).count
    let time = seconds(results.reduce(0) { $0 + $1.seconds })
    let counts =
      "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" "
      + "skipped=\"\(skipped)\" time=\"\(time)\""
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuites name=\"snm test\" \(counts)>\n"
    xml += "  <testsuite name=\"snm test\" \(counts)>\n"
    if let target {
      xml += "    <properties>\n"
      for (name, value) in [
        ("url", target.url), ("key", target.keyKind), ("source", target.source),
      ] {
        xml += "      <property name=\"snm.target.\(name)\" value=\"\(escape(value))\"/>\n"
      }
      xml += "    </properties>\n"
    }
    for result in results { xml += testcase(result) }
    xml += "  </testsuite>\n</testsuites>\n"
    return xml
  }

  static func testcase(_ result: ScriptResult) -> String {
    let url = URL(fileURLWithPath: result.path)
    var directory = (result.path as NSString).deletingLastPathComponent
    while directory.hasPrefix("/") { directory.removeFirst() }
    if directory.isEmpty { directory = "." }
    let attributes =
      "classname=\"\(escape(directory.replacingOccurrences(of: "/", with: ".")))\" "
      + "name=\"\(escape(url.lastPathComponent))\" file=\"\(escape(result.path))\" "
      + "time=\"\(seconds(result.seconds))\""
    if result.passed { return "    <testcase \(attributes)/>\n" }
    var xml = "    <testcase \(attributes)>\n"
    if result.skipped {
      xml += "      <skipped message=\"not run: the run was interrupted\"/>\n"
    } else {
      let element = isError(result) ? "error" : "failure"
      let first = result.failures.first
      let type = first?.kind.rawValue ?? "error"
      let message = first.map { "\($0.location): \($0.message)" } ?? "exit code \(result.exitCode)"
      let text = result.failures.map(\.text).joined()
      xml += "      <\(element) type=\"\(type)\" message=\"\(escape(message))\">"
      xml += escape(text) + "</\(element)>\n"
      let out = systemOut(result)
      if !out.isEmpty { xml += "      <system-out>\(escape(out))</system-out>\n" }
    }
    xml += "    </testcase>\n"
    return xml
  }

  /// What the file printed, then its last requests and answers (keys and tokens masked).
  static func systemOut(_ result: ScriptResult) -> String {
    var text = result.output
    if !result.trace.isEmpty {
      if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
      text +=
        "--- the last requests and answers ---\n" + result.trace.joined(separator: "\n") + "\n"
    }
    return text
  }

  /// Whether the file errored (did not get to run as written) rather than failed a check.
  static func isError(_ result: ScriptResult) -> Bool {
    guard let kind = result.failures.first?.kind else { return !result.passed && !result.skipped }
    return kind != .expectation && kind != .statement
  }

  /// Seconds with three decimals, as JUnit readers expect.
  static func seconds(_ value: Double) -> String {
    String(format: "%.3f", max(0, value))
  }

  /// Text for an attribute or element: `& < > "` as entities, and characters XML 1.0
  /// does not allow (control characters but tab and line breaks) as `\u{..}`.
  static func escape(_ text: String) -> String {
    xmlText.escape(text)
  }

  static let xmlText = ScalarEscaping(
    ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"],
    other: { value in
      value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D
        || (0xFFFE...0xFFFF).contains(value) ? "\\u{\(String(value, radix: 16))}" : nil
    })
}
