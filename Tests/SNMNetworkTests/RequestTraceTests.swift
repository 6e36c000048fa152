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

  /// A failing request's error code is what its reader needs; the `code` a client sends (an MFA
  /// code) stays a secret.
  @Test func anAnswersErrorCodeShowsAndASentCodeIsMasked() {
    let answer = RequestTrace.shown(
      Data(#"{"code":"42501","message":"denied","access_token":"eyJ.a.b"}"#.utf8),
      type: "application/json", answer: true)
    #expect(answer == #"{"code":"42501","message":"denied","access_token":"********"}"#)
    let sent = RequestTrace.shown(Data(#"{"code":"123456"}"#.utf8), type: "application/json")
    #expect(sent == #"{"code":"********"}"#)
  }

  /// Exchanges after the run's first failure (its `defer` clean-up) never push the failing one out.
  @Test func theFailingExchangeStaysWhateverComesAfterIt() {
    let trace = RequestTrace(keep: 2)
    func send(_ path: String) {
      let request = TransportRequest(
        method: .get, url: "http://127.0.0.1:54321/rest/v1/" + path, fields: [], body: nil,
        timeout: 5, maximumBodyBytes: 1 << 20)
      let answer = SNMResponse(
        url: request.url, status: 200, headers: HTTPHeaders([]), body: Data())
      trace.record(request, response: answer, failure: nil, milliseconds: 1)
    }
    for path in ["a", "b", "failing"] { send(path) }
    trace.markFailure()
    for path in ["d1", "d2", "d3"] { send(path) }
    let requests = trace.lines().filter {
      $0.hasPrefix(">") || $0.hasPrefix("-") || $0.hasPrefix("(")
    }
    #expect(
      requests == [
        "> GET /rest/v1/b", "> GET /rest/v1/failing", RequestTrace.afterFailure,
        "(1 more exchanges after the failure not kept)", "> GET /rest/v1/d2", "> GET /rest/v1/d3",
      ])
  }
}
