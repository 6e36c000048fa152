import Dispatch
import Foundation
import SNMWire
import Synchronization
import Testing

@testable import SNMShell

/// A row with 300,000 columns is noted and tabulated in linear time: a row of 100,000 keys took
/// 15 s to print as json when each key was searched for in a list. The work runs on a thread of
/// its own with a generous deadline (it takes about a second): a hang guard that fails the test
/// instead of leaving it running for the minutes quadratic work on these rows takes.
@Suite struct WideRowTests {
  static let keys = (0..<300_000).map { "k\($0)" }

  /// What `body` returns, run on a thread of its own; nil (with an issue recorded) when it has
  /// not finished in 60 s.
  func finishing<T: Sendable>(_ what: String, _ body: @escaping @Sendable () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<T?>(nil)
    Thread.detachNewThread {
      let value = body()
      result.withLock { $0 = value }
      done.signal()
    }
    guard done.wait(timeout: .now() + 60) == .success else {
      Issue.record("\(what) still ran after 60 s: quadratic in the number of columns?")
      return nil
    }
    return result.withLock { $0 }
  }

  @Test func theCatalogNotesEveryColumnOnce() {
    let columns = finishing("noting the columns") {
      let catalog = SchemaCatalog()
      catalog.noteResult(table: "wide", columns: Self.keys)
      catalog.noteResult(table: "wide", columns: Self.keys.reversed() + ["extra"])
      return catalog.columns(of: "wide")
    }
    #expect(columns?.count == Self.keys.count + 1)
    #expect(columns?.first == "k0" && columns?.last == "extra")
  }

  @Test func rowsWithDifferentKeysTabulateInOnePass() {
    let table = finishing("tabulating the rows") {
      let first = JSONObject(Self.keys.prefix(200_000).map { ($0, JSONValue.int(1)) })
      let second = JSONObject(Self.keys.suffix(200_000).map { ($0, JSONValue.int(2)) })
      return ResultSet.tabulate([first, second])
    }
    guard let (columns, rows) = table else { return }
    #expect(columns.count == 300_000)
    #expect(rows[0][0] == .int(1) && rows[0][299_999] == .null)
    #expect(rows[1][0] == .null && rows[1][299_999] == .int(2))
  }
}
