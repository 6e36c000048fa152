import Foundation
import SNMWire
import Testing

@testable import SNMNetwork

/// What `snm test --verbose` and reports show of an exchange: never a key, token or password.
@Suite struct RequestTraceTests {
  @Test func anExchangeIsShownWithItsSecretsMasked() {
    let trace = RequestTrace(keep: 1)
    let request = TransportRequest(
      method: .post, url: "http://127.0.0.1:54321/auth/v1/token?grant_type=password",
      fields: [
        .init(name: "apikey", value: "sb_secret_abc"),
        .init(name: "Authorization", value: "Bearer x"),
        .init(name: "Content-Type", value: "application/json"),
      ],
      body: Data(#"{"email":"a@b.c","password":"hunter2"}"#.utf8), timeout: 5,
      maximumBodyBytes: 1 << 20)
    let answer = SNMResponse(
      url: request.url, status: 200,
      headers: HTTPHeaders([.init(name: "Content-Range", value: "0-0/1")]),
      body: Data(#"{"access_token":"eyJ.a.b","user":{"id":"u","refresh_token":"r"}}"#.utf8))
    trace.record(request, response: answer, failure: nil, milliseconds: 38.4)
    let lines = trace.lines()
    #expect(lines[0] == "> POST /auth/v1/token?grant_type=password")
    #expect(lines.contains("> Content-Type: application/json"))
    #expect(lines.contains(#"> {"email":"a@b.c","password":"********"}"#))
    #expect(lines.contains("< 200 Content-Range 0-0/1 (38 ms)"))
    #expect(
      lines.contains(#"< {"access_token":"********","user":{"id":"u","refresh_token":"********"}}"#)
    )
    let text = lines.joined()
    #expect(!text.contains("sb_secret") && !text.contains("Bearer") && !text.contains("hunter2"))
    trace.record(request, response: nil, failure: .cancelled(url: request.url), milliseconds: 1)
    #expect(trace.lines().count == 4)  // only the last exchange is kept
  }

  @Test func longBodiesAreCutAndTokensInQueriesMasked() {
    #expect(
      RequestTrace.pathAndQuery("https://x.co/storage/v1/object/sign/a%20b.png?token=abc&x=1")
        == "/storage/v1/object/sign/a b.png?token=********&x=1")
    let shown = RequestTrace.shown(
      Data(String(repeating: "a", count: 5000).utf8), type: "text/plain")
    #expect(shown.hasSuffix("... (cut at 1024 of 5000 bytes)"))
  }

  /// One list of secret members for traces and `explain`: `user update password` sends the
  /// current password as `current_password`, which the trace's own list used to miss.
  @Test func everySecretMemberIsMaskedInATrace() {
    let body = #"{"email":"kim@example.com","current_password":"old-one","password":"new-one"}"#
    let shown = RequestTrace.shown(Data(body.utf8), type: "application/json")
    #expect(!shown.contains("old-one") && !shown.contains("new-one"))
    #expect(shown.contains(#""email":"kim@example.com""#))
  }
}
