import Foundation
import Testing

/// Compares `actual` with the golden file `Fixtures/<name>`; `RECORD_SNAPSHOTS=1` rewrites it.
func expectSnapshot(
  _ actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
  while directory.lastPathComponent != "SNMShellTests" && directory.path != "/" {
    directory.deleteLastPathComponent()
  }
  let file = directory.appendingPathComponent("Fixtures").appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    try? FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data(actual.utf8).write(to: file)
    return
  }
  guard let data = try? Data(contentsOf: file) else {
    Issue.record(
      "no golden file \(file.path): run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  #expect(actual == expected, "differs from \(name)", sourceLocation: sourceLocation)
}
