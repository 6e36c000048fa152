import Foundation
import Testing

/// Compares `actual` with the golden file `Fixtures/<name>` of the test target whose file calls
/// it (help, diagnostics, explain, tables: rendered output).
///
/// ```swift
/// expectSnapshot(HelpText.text(for: .shell), named: "help.txt")
/// ```
/// A missing golden file fails (a new case cannot pass without its fixture), and so does
/// recording: `RECORD_SNAPSHOTS=1 swift test` writes every golden it meets and fails each test
/// that wrote one, so a run that recorded is never mistaken for one that passed (as
/// swift-argument-parser's `assertSnapshot` does). Check the new files, then run again.
public func expectSnapshot(
  _ actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let file = snapshotFile(named: name, filePath: filePath)
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(actual.utf8).write(to: file, options: .atomic)
      Issue.record(
        "recorded \(file.path): check it, then run again without RECORD_SNAPSHOTS",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("cannot record \(file.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  guard let data = FileManager.default.contents(atPath: file.path) else {
    Issue.record(
      "no golden file \(file.path): run with RECORD_SNAPSHOTS=1 to record it",
      sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  #expect(actual == expected, "differs from \(name)", sourceLocation: sourceLocation)
}

/// `Tests/<Target>/Fixtures/<name>` for a test file anywhere under `Tests/<Target>/`.
func snapshotFile(named name: String, filePath: String) -> URL {
  var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
  while directory.deletingLastPathComponent().lastPathComponent != "Tests"
    && directory.path != "/"
  {
    directory.deleteLastPathComponent()
  }
  return directory.appendingPathComponent("Fixtures").appendingPathComponent(name)
}
