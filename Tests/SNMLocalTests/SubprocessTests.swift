import Foundation
import Testing

@testable import SNMLocal

#if canImport(Glibc)
  import Glibc
#endif

/// What a helper program (initdb, pg_ctl and the postgres it leaves running, the gateway) gets from
/// snm: the standard streams, nothing else this process holds.
@Suite struct SubprocessTests {
  @Test func aChildGetsNoDescriptorAboveStandardError() throws {
    // Open without close-on-exec, as a `flock` around `snm local start` hands its lock file down.
    let held = open("/dev/null", O_RDONLY)
    try #require(held > 2)
    defer { close(held) }
    let listing = try Subprocess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
    let open = listing.output.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    #expect(listing.status == 0)
    #expect(!open.contains(held), "the child had descriptor \(held): \(open)")
    #expect(open.allSatisfy { $0 <= 2 }, "\(open)")
  }
}
