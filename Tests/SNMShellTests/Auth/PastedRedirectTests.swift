import Foundation
import Testing

@testable import SNMShell

/// What a person pastes while `login provider` waits: the address the browser was sent to, or
/// the code alone; lines as they come through a pipe standing in for the terminal.
@Suite struct PastedRedirectTests {
  @Test func anAddressGivesItsQueryAndACodeStandsAlone() {
    #expect(
      PastedRedirect.query(of: "  http://127.0.0.1:5/callback?code=a%2Bb&state=s  ")
        == ["code": "a+b", "state": "s"])
    #expect(PastedRedirect.query(of: "9f1c-code") == ["code": "9f1c-code"])
    #expect(
      PastedRedirect.query(of: "http://127.0.0.1:5/callback?error=access_denied#error_code=x")
        == ["error": "access_denied", "error_code": "x"])
    #expect(PastedRedirect.query(of: "   ") == nil)
  }

  @Test func linesAreReadAsTheyComeAndEmptyOnesPassedOver() throws {
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    var pasted = PastedRedirect(fd: ends[0])
    func send(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    }
    send("\n  \nhttp://127.0.0.1:5/call")
    #expect(pasted.readLine() == nil)
    send("back?code=c1\n")
    #expect(pasted.readLine() == ["code": "c1"])
    close(ends[1])
    #expect(pasted.readLine() == nil)
    #expect(pasted.fd == nil, "the input ended")
  }
}
