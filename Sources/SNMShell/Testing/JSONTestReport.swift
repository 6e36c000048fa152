import Foundation
import SNMNetwork
import SNMWire

/// The JSON report: one object with the counts and a `files` array in the order files were named.
///
/// ```json
/// {"target": {"url": "http://127.0.0.1:54321", "key": "publishable", "source": "--local"},
///  "passed": 1, "failed": 1, "skipped": 0, "seconds": 0.52,
///  "files": [{"path": "smoke/pair.snm", "status": "passed", "exit_code": 0, ...}]}
/// ```
enum JSONTestReport {
  static func render(_ results: [ScriptResult], target: RunTarget?) -> String {
    var root = JSONObject()
    if let target {
      var object = JSONObject()
      object.append("url", .string(target.url))
      object.append("key", .string(target.keyKind))
      object.append("source", .string(target.source))
      root.append("target", .object(object))
    }
    root.append("passed", .number(JSONNumber(results.filter(\.passed).count)))
    root.append(
      "failed", .number(JSONNumber(results.filter { !$0.passed && !$0.skipped }.count)))
    root.append("skipped", .number(JSONNumber(results.filter(\.skipped).count)))
    root.append("seconds", seconds(results.reduce(0) { $0 + $1.seconds }))
    root.append("files", .array(results.map(file)))
    return JSONValue.object(root).prettyPrinted() + "\n"
  }

  static func file(_ result: ScriptResult) -> JSONValue {
    var object = JSONObject()
    object.append("path", .string(result.path))
    object.append("status", .string(result.status))
    object.append("exit_code", .number(JSONNumber(Int(result.exitCode.rawValue))))
    object.append("statements", .number(JSONNumber(result.statements)))
    object.append("expectations", .number(JSONNumber(result.expectations)))
    object.append("seconds", seconds(result.seconds))
    object.append("failures", .array(result.failures.map(failure)))
    if result.attempts > 1 { object.append("attempts", .number(JSONNumber(result.attempts))) }
    if !result.passed && !result.output.isEmpty { object.append("output", .string(result.output)) }
    if !result.trace.isEmpty { object.append("trace", .array(result.trace.map(JSONValue.string))) }
    return .object(object)
  }

  static func failure(_ failure: ScriptFailure) -> JSONValue {
    var object = JSONObject()
    object.append("kind", .string(failure.kind.rawValue))
    object.append("location", .string(failure.location))
    object.append("statement", .string(failure.statement))
    object.append("message", .string(failure.message))
    object.append("expected", failure.expected.map(JSONValue.string) ?? .null)
    object.append("found", failure.found.map(JSONValue.string) ?? .null)
    object.append("text", .string(failure.text))
    return .object(object)
  }

  static func seconds(_ value: Double) -> JSONValue {
    JSONNumber(String(format: "%.3f", max(0, value))).map(JSONValue.number) ?? .null
  }
}
