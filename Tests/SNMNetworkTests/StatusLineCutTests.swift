import Foundation
import SNMWire
import Testing

@testable import SNMNetwork

/// A connection that closes in an answer's status line, before its line end, is nothing
/// answered over http:// as libcurl takes it over https:// ("Empty reply from server"): the same
/// words, and a read on a kept connection goes again (``PlainHTTPReader/statusLineCut(_:)``). An
/// interim answer before it, or a whole status line, is part of an answer: a head cut off.
@Suite struct StatusLineCutTests {
  /// What the plain reader makes of `bytes` and then the connection's end.
  func verdict(_ bytes: String) -> PlainHTTPFailure? {
    var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: 1 << 20)
    var sent = false
    do throws(PlainHTTPFailure) {
      _ = try reader.readAnswer(isHead: false) { () throws(PlainHTTPFailure) -> [UInt8] in
        defer { sent = true }
        return sent ? [] : Array(bytes.utf8)
      }
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    "HTTP/1.1 20", "HTTP/1.1 200 OK", "H", "HTTP/", "HTTP/1.1 200 OK\r",
  ])
  func aStatusLineCutBeforeItsEndIsNothingAnswered(bytes: String) {
    #expect(verdict(bytes) == .closedEarly(receivedNothing: true))
  }

  @Test(arguments: [
    "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Ty",
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 20",
  ])
  func anythingMoreIsAHeadCutOff(bytes: String) {
    #expect(verdict(bytes) == .closedEarly(receivedNothing: false))
  }

  /// Bytes that cannot start a status line are refused as they come, as libcurl refuses them.
  @Test(arguments: ["XTTP/1.1 20", "garbage", "http/1.1 2"])
  func bytesThatCannotStartAStatusLineAreNotHTTP(bytes: String) {
    #expect(
      verdict(bytes)
        == .malformed("the answer is not valid HTTP (Received HTTP/0.9 when not allowed)"))
  }

  /// What a write the server did not process came to, by what was done with it: sent once more
  /// (and failed again), or not sent again (its send once more could not go); one it may have
  /// processed (HTTP_1_1_REQUIRED) is not sent again.
  @Test func aStoppedResendIsWordedByWhatWasDone() {
    #expect(
      CurlTransport.stoppedResend(notProcessed: true, isResend: true)
        == "the server did not process the write, sent once more on a new connection, no further")
    #expect(
      CurlTransport.stoppedResend(notProcessed: true, isResend: false)
        == "the server did not process the write, not sent again")
    #expect(
      CurlTransport.stoppedResend(notProcessed: false, isResend: false)
        == "a request that writes is not sent again")
  }
}
