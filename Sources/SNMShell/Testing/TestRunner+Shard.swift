import Foundation
import SNMQuery
import SNMWire

/// `--shard K/N`: the K-th of N stable shares of the files, so a CI matrix of N machines runs
/// each file once. Without timings, files go round in name order; with an earlier JSON report
/// (`--timings`), the longest first to the share with the least time so far (files the report
/// does not know count as its average), which keeps the shares within about one file's time.
public struct TestShard: Sendable, Equatable {
  /// 1-based.
  public var index: Int
  public var count: Int

  /// `2/4`. Throws `UsageError` unless 1 <= K <= N <= 1000.
  public static func parse(_ text: String) throws(UsageError) -> TestShard {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      count <= 1000, index >= 1, index <= count
    else {
      throw UsageError("option '--shard' needs K/N with 1 <= K <= N, such as 2/4, not '\(text)'")
    }
    return TestShard(index: index, count: count)
  }

  /// The files of this share, in the order given. `seconds` are earlier times by path.
  public func pick(_ files: [String], seconds: [String: Double] = [:]) -> [String] {
    let byName = files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var mine: Set<String> = []
    if seconds.isEmpty {
      for (position, file) in byName.enumerated() where position % count == index - 1 {
        mine.insert(file)
      }
    } else {
      let known = byName.compactMap { seconds[$0] }
      let average = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
      let timed = byName.map { ($0, seconds[$0] ?? average) }
        .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
      var totals = Array(repeating: 0.0, count: count)
      for (file, time) in timed {
        let least =
          totals.indices.min { totals[$0] != totals[$1] ? totals[$0] < totals[$1] : $0 < $1 } ?? 0
        totals[least] += time
        if least == index - 1 { mine.insert(file) }
      }
    }
    return files.filter { mine.contains($0) }
  }
}

extension TestRunner {
  /// The files a run of `configuration` takes: all, or the share `--shard` names.
  /// - Throws: `UsageError` when `--timings` names a report that cannot be read.
  static func shardFiles(_ files: [String], _ configuration: Configuration) throws(UsageError)
    -> [String]
  {
    guard let shard = configuration.shard else { return files }
    var seconds: [String: Double] = [:]
    if let path = configuration.timings {
      for result in try TestReportFile.read(path) where !result.skipped {
        seconds[result.path] = result.seconds
      }
    }
    return shard.pick(files, seconds: seconds)
  }

  /// Whether the script says `# snm: idempotent` in its comments before the first statement (in
  /// its first 4,096 bytes): it may run again after a failure (`--retry`).
  static func isIdempotent(_ source: Source) -> Bool {
    let head = String(decoding: source.bytes.prefix(4096), as: UTF8.self)
    for line in head.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { continue }
      guard trimmed.hasPrefix("#") || trimmed.hasPrefix("--") else { return false }
      let words = trimmed.drop { $0 == "#" || $0 == "-" }.lowercased()
        .split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "\t" })
      if words.count == 2 && words[0] == "snm" && words[1] == "idempotent" { return true }
    }
    return false
  }
}
