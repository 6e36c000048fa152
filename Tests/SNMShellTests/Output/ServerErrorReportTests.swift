import Foundation
import SNMNetwork
import Testing

@testable import SNMShell

private func serverError(_ status: Int, _ body: String) -> SNMServerError {
  SNMServerError(
    response: SNMResponse(
      url: "http://x/rest/v1/t", status: status, headers: [:], body: Data(body.utf8)))
}

@Test func rlsErrorsSayWhoAsked() {
  let failure = serverError(
    401,
    #"{"code":"42501","message":"new row violates row-level security policy for table \"dog_profile\"","details":null,"hint":null}"#
  )
  let anon = ServerErrorReport(role: "anon", signedIn: false).render(failure)
  #expect(
    anon == """
      error 42501 (HTTP 401): new row violates row-level security policy for table "dog_profile"
        advice: the request ran as anon (no one signed in): `login` to act as a user, or check the \
      table's grants and row-level security policies

      """)
  let kim = ServerErrorReport(role: "kim", signedIn: true).render(failure)
  #expect(kim.contains("advice: the request ran as kim (role authenticated)"))
}

@Test func singleRowErrorsSuggestLimitOne() {
  let failure = serverError(
    406,
    #"{"code":"PGRST116","message":"Cannot coerce the result to a single JSON object","details":"The result contains 4 rows","hint":null}"#
  )
  let text = ServerErrorReport(role: "anon", signedIn: false).render(failure)
  #expect(
    text == """
      error PGRST116 (HTTP 406): Cannot coerce the result to a single JSON object
        details: The result contains 4 rows
        advice: `single` wants exactly one row: add `limit 1`, narrow the `where`, or drop \
      `single` (`maybe single` allows none)

      """)
}

@Test func unknownTablesPointAtTables() {
  let failure = serverError(
    404,
    #"{"code":"PGRST205","message":"Could not find the table 'public.user' in the schema cache","details":null,"hint":"Perhaps you meant the table 'public.user_info'"}"#
  )
  let text = ServerErrorReport(role: "anon", signedIn: false).render(failure)
  #expect(text.contains("  hint: Perhaps you meant the table 'public.user_info'\n"))
  #expect(text.hasSuffix("  advice: `tables` lists the tables and views this project exposes\n"))
}

@Test func aBodyThatIsNotJSONIsQuoted() {
  let text = ServerErrorReport(role: "anon", signedIn: false).render(
    serverError(502, "Bad Gateway"))
  #expect(text == "error (HTTP 502): Bad Gateway\n")
}

@Test func pagerIsNeededOnlyForMoreLinesThanTheScreen() {
  #expect(!Pager.isNeeded(for: "a\nb\n", rows: 24))
  #expect(Pager.isNeeded(for: String(repeating: "row\n", count: 24), rows: 24))
  #expect(Pager.command(environment: [:]) == "less -SRXF")
  #expect(Pager.command(environment: ["PAGER": "more"]) == "more")
  #expect(Pager.command(environment: ["PAGER": " "]) == "less -SRXF")
  #expect(Pager.command(environment: ["SNM_PAGER": "cat", "PAGER": "more"]) == "cat")
  #expect(Pager.command(environment: ["SNM_PAGER": "", "PAGER": "more"]) == nil)
  #expect(Pager.command(environment: ["SNM_PAGER": "OFF"]) == nil)
}

/// An answer that came while the request's body still went out (HTTP/2, libcurl 7.88): the note
/// says the body was not sent whole, before any advice, and whether the answer's body was read.
@Test func anEarlyAnswerSaysTheBodyWasNotSentWhole() {
  var response = SNMResponse(
    url: "https://x/rest/v1/t", status: 413, headers: [:],
    body: Data(#"{"message":"Payload too large"}"#.utf8))
  response.earlyAnswer = SNMResponse.EarlyAnswer(rest: .read)
  let read = ServerErrorReport(role: "anon", signedIn: false).render(
    SNMServerError(response: response))
  #expect(
    read == """
      error (HTTP 413): Payload too large
        note: the server answered before the request's body was sent whole: the rest of it was \
      not sent

      """)
  var unread = SNMResponse(url: "https://x/rest/v1/t", status: 413, headers: [:], body: Data())
  unread.earlyAnswer = SNMResponse.EarlyAnswer(rest: .notWaitedFor)
  let text = ServerErrorReport(role: "anon", signedIn: false).render(
    SNMServerError(response: unread))
  #expect(
    text.hasSuffix(
      "not sent, and the answer's body (of no stated length) was not waited for\n"))
  unread.earlyAnswer = SNMResponse.EarlyAnswer(rest: .dropped)
  let dropped = ServerErrorReport(role: "anon", signedIn: false).render(
    SNMServerError(response: unread))
  #expect(
    dropped.hasPrefix(
      "error (HTTP 413): no message\n  note: the server answered before the request's body was "
        + "sent whole and closed its HTTP/2 stream (RST_STREAM NO_ERROR): the rest of it was not "
        + "sent, and libcurl 7.88 keeps nothing of such an answer but its status"))
}
