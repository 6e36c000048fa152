import Testing

@testable import SNMGateway

#if canImport(Glibc)
  import Glibc
#endif

/// The pool's measure of a backend: `RssAnon` read from /proc/<pid>/status's bytes.
@Suite struct BackendMemoryTests {
  static func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

  @Test func readsRssAnonInKilobytes() {
    let status = """
      Name:\tpostgres
      VmRSS:\t   20480 kB
      RssAnon:\t    5312 kB
      RssFile:\t   12000 kB
      Threads:\t1

      """
    #expect(PGConnection.residentAnonymousBytes(statusFile: Self.bytes(status)) == 5312 * 1024)
  }

  @Test func aLastLineWithoutNewlineAndNoLine() {
    #expect(
      PGConnection.residentAnonymousBytes(statusFile: Self.bytes("Name:\tx\nRssAnon:\t7 kB"))
        == 7 * 1024)
    #expect(
      PGConnection.residentAnonymousBytes(statusFile: Self.bytes("Name:\tx\nVmRSS:\t7 kB\n")) == nil
    )
    #expect(PGConnection.residentAnonymousBytes(statusFile: Self.bytes("RssAnon:\t kB\n")) == nil)
    #expect(PGConnection.residentAnonymousBytes(statusFile: Self.bytes("")) == nil)
  }

  @Test func aKeyInsideAnotherLineIsNotTheLine() {
    let status = "Name:\tRssAnon: 9 kB\nRssAnon:\t3 kB\n"
    #expect(PGConnection.residentAnonymousBytes(statusFile: Self.bytes(status)) == 3 * 1024)
  }

  @Test func aNumberTooLargeIsNoMeasure() {
    let status = "RssAnon:\t99999999999999999999999 kB\n"
    #expect(PGConnection.residentAnonymousBytes(statusFile: Self.bytes(status)) == nil)
  }

  @Test func thisProcessHasOne() throws {
    let measured = try #require(PGConnection.anonymousResidentBytes(pid: getpid()))
    #expect(measured > 0)
  }
}
