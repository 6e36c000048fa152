import Foundation
import SNMWire

/// Reading back the JSON report `snm test --report json=PATH` writes: for `--timings` (the
/// shards' balance) and `snm report merge` (one report from the shards').
///
/// ```swift
/// let results = try TestReportFile.read("shard-1.json") + TestReportFile.read("shard-2.json")
/// try TestReportFile.merge(["a.json", "b.json"], into: [TestReport(kind: .junit, path: "all.xml")])
/// ```
public enum TestReportFile {
  /// The files of a JSON report, in its order.
  /// - Throws: `UsageError` when it cannot be read or is not an snm JSON report.
  public static func read(_ path: String) throws(UsageError) -> [ScriptResult] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read the report '\(path)'")
    }
    guard let root = try? JSONValue(parsing: data), let files = root["files"]?.arrayValue else {
      throw UsageError("'\(path)' is not a JSON report of snm test (--report json=PATH)")
    }
    var results: [ScriptResult] = []
    for file in files {
      guard let name = file["path"]?.stringValue, let status = file["status"]?.stringValue else {
        throw UsageError(
          "'\(path)' is not a JSON report of snm test: a file without path or status")
      }
      let code = file["exit_code"]?.numberValue?.intValue.flatMap { Int32(exactly: $0) } ?? 1
      var result = ScriptResult(
        path: name, exitCode: ExitCode(rawValue: code) ?? .failure,
        failures: (file["failures"]?.arrayValue ?? []).map(failure),
        statements: file["statements"]?.numberValue?.intValue ?? 0,
        expectations: file["expectations"]?.numberValue?.intValue ?? 0,
        seconds: file["seconds"]?.doubleValue ?? 0,
        output: file["output"]?.stringValue ?? "", skipped: status == "skipped")
      result.trace = (file["trace"]?.arrayValue ?? []).compactMap(\.stringValue)
      result.attempts = file["attempts"]?.numberValue?.intValue ?? 1
      results.append(result)
    }
    return results
  }

  /// The target a JSON report names, or nil when it names none (written before reports did).
  /// - Throws: `UsageError` when it cannot be read or is not JSON.
  public static func target(_ path: String) throws(UsageError) -> RunTarget? {
    guard let data = FileManager.default.contents(atPath: path),
      let root = try? JSONValue(parsing: data)
    else { throw UsageError("cannot read the report '\(path)'") }
    guard let target = root["target"], let url = target["url"]?.stringValue else { return nil }
    return RunTarget(
      url: url, keyKind: target["key"]?.stringValue ?? "unknown",
      source: target["source"]?.stringValue ?? "")
  }

  static func failure(_ value: JSONValue) -> ScriptFailure {
    ScriptFailure(
      kind: value["kind"]?.stringValue.flatMap(ScriptFailure.Kind.init(rawValue:)) ?? .error,
      location: value["location"]?.stringValue ?? "",
      statement: value["statement"]?.stringValue ?? "",
      message: value["message"]?.stringValue ?? "",
      expected: value["expected"]?.stringValue, found: value["found"]?.stringValue,
      text: value["text"]?.stringValue ?? "")
  }

  /// `snm report merge`: the reports' files, in the order the reports are named (a file named
  /// twice keeps its last result), written as each of `reports` with the target they name.
  /// Returns the merged results.
  /// - Throws: `UsageError` for a report that cannot be read, or reports that name different
  ///   projects (URL or kind of key); `CommandFailure` (exit 2, as `snm test`'s) for one that
  ///   cannot be written: not a usage error.
  @discardableResult
  public static func merge(_ paths: [String], into reports: [TestReport]) throws -> [ScriptResult] {
    var merged: [ScriptResult] = []
    var positions: [String: Int] = [:]
    var targets: [(path: String, target: RunTarget)] = []
    for path in paths {
      if let named = try Self.target(path) { targets.append((path, named)) }
      for result in try read(path) {
        if let position = positions[result.path] {
          merged[position] = result
        } else {
          positions[result.path] = merged.count
          merged.append(result)
        }
      }
    }
    let target = targets.first?.target
    if let first = targets.first,
      let other = targets.first(where: {
        $0.target.url != first.target.url || $0.target.keyKind != first.target.keyKind
      })
    {
      throw UsageError(
        "the reports ran against different projects: '\(first.path)' against "
          + "\(first.target.url) (\(first.target.keyKind) key), '\(other.path)' against "
          + "\(other.target.url) (\(other.target.keyKind) key)")
    }
    for report in reports {
      if let failure = report.write(report.kind.render(merged, target: target)) {
        throw CommandFailure(failure, exitCode: .usage)
      }
    }
    return merged
  }
}
