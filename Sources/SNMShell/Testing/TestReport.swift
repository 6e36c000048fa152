/// A report file `snm test --report KIND=PATH` writes: JUnit XML, TAP 13 or JSON.
///
/// ```swift
/// let report = try TestReport.parse("junit=build/snm.xml")
/// let text = report.kind.render(results)   // files in the order they were named
/// ```
/// Reports list files in the order they were named, never in the order they finished, so
/// `--jobs 4` writes the same report as `--jobs 1`. Only JUnit's `time` attributes and the JSON
/// report's `seconds` change from run to run.
public struct TestReport: Sendable, Equatable {
  /// The report formats.
  public enum Kind: String, Sendable, CaseIterable {
    case junit, tap, json

    /// The report's text for `results`, run against `target` (nil: not known, as in a merge of
    /// reports written before they named it).
    public func render(_ results: [ScriptResult], target: RunTarget? = nil) -> String {
      switch self {
      case .junit: JUnitReport.render(results, target: target)
      case .tap: TAPReport.render(results, target: target)
      case .json: JSONTestReport.render(results, target: target)
      }
    }
  }

  public var kind: Kind
  public var path: String

  public init(kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }

  /// `junit=PATH`, `tap=PATH` or `json=PATH`.
  /// - Throws: `UsageError` for another kind or a missing path.
  public static func parse(_ text: String) throws(UsageError) -> TestReport {
    let names = Kind.allCases.map(\.rawValue).joined(separator: "|")
    guard let equals = text.firstIndex(of: "="),
      let kind = Kind(rawValue: text[..<equals].lowercased())
    else {
      throw UsageError("option '--report' needs KIND=PATH with KIND \(names), not '\(text)'")
    }
    let path = String(text[text.index(after: equals)...])
    guard !path.isEmpty else {
      throw UsageError("option '--report \(kind.rawValue)=' needs a file path")
    }
    return TestReport(kind: kind, path: path)
  }
}

extension ScriptResult {
  /// `passed`, `failed` or `skipped`, as the reports say it.
  var status: String { skipped ? "skipped" : passed ? "passed" : "failed" }
}
