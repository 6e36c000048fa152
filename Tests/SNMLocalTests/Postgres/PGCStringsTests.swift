import Testing

@testable import SNMGateway

/// The parameters libpq gets: each value as a NUL-terminated C string in one buffer, `NULL` for
/// nil, and a value holding NUL refused with 22021 before anything is sent.
@Suite struct PGCStringsTests {
  @Test func eachValueIsItsOwnCString() throws {
    let values: [String?] = ["", "a", nil, "두부 🐕", String(repeating: "x", count: 5_000), nil]
    let read = try PGConnection.withCStrings(values) { pointers throws(PGError) in
      pointers.map { $0.map { String(cString: $0) } }
    }
    #expect(read == values)
  }

  @Test func noValuesGiveNoPointers() throws {
    let count = try PGConnection.withCStrings([]) { pointers throws(PGError) in pointers.count }
    #expect(count == 0)
  }

  @Test func aNULByteIsRefusedBeforeTheBodyRuns() {
    var ran = false
    do {
      _ = try PGConnection.withCStrings(["ok", "a\u{0}b"]) { _ throws(PGError) in ran = true }
      Issue.record("a value with NUL was accepted")
    } catch {
      #expect(error.sqlState == "22021")
    }
    #expect(!ran)
  }
}
