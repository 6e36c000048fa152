import SNMGateway
import SNMWire
import Testing

@testable import SNMLocalREST

/// CORS on `/rest/v1` as PostgREST 13's Cors.hs (wai-cors) answers it.
struct RESTCORSTests {
  func options(_ headers: HTTPHeaders) -> HTTPRequest {
    HTTPRequest(method: "OPTIONS", target: "/rest/v1/items", headers: headers)
  }

  @Test func aPreflightIsAnsweredPermissively() throws {
    let response = try #require(
      RESTCORS.preflight(
        options([
          "Origin": "http://example.com", "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "Foo,Bar",
        ])))
    #expect(response.status == 200)
    #expect(response.body.isEmpty)
    #expect(response.headers["Access-Control-Allow-Origin"] == "*")
    #expect(
      response.headers["Access-Control-Allow-Methods"]
        == "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD")
    #expect(
      response.headers["Access-Control-Allow-Headers"]
        == "Authorization, Foo, Bar, Accept, Accept-Language, Content-Language")
    #expect(response.headers["Access-Control-Max-Age"] == "86400")
  }

  /// The names asked for stay as written, after `Authorization` even when asked for again; the
  /// simple headers asked for are not repeated.
  @Test func askedHeadersKeepTheirSpelling() {
    #expect(
      RESTCORS.allowedHeaders(" apikey , authorization,accept")
        == "Authorization, apikey, authorization, accept, Accept-Language, Content-Language")
    #expect(
      RESTCORS.allowedHeaders("")
        == "Authorization, Accept, Accept-Language, Content-Language")
    #expect(RESTCORS.allowedHeaders("a,,b") == nil)
    #expect(RESTCORS.allowedHeaders("a b") == nil)
  }

  /// No origin, no method asked for, or one PostgREST does not list: no preflight of its own.
  @Test func otherOptionsAreNoPreflight() {
    #expect(RESTCORS.preflight(options(["Access-Control-Request-Method": "POST"])) == nil)
    #expect(RESTCORS.preflight(options(["Origin": "http://example.com"])) == nil)
    #expect(
      RESTCORS.preflight(
        options(["Origin": "http://example.com", "Access-Control-Request-Method": "TRACE"]))
        == nil)
    let noHeaders = RESTCORS.preflight(
      options(["Origin": "http://example.com", "Access-Control-Request-Method": "GET"]))
    #expect(noHeaders?.headers["Access-Control-Allow-Headers"] == nil)
  }

  @Test func answersToAnOriginExposeHeaders() {
    let answer = HTTPResponse(status: 200, headers: ["Content-Range": "0-0/*"])
    let get = HTTPRequest(
      method: "GET", target: "/rest/v1/items", headers: ["Origin": "http://example.com"])
    #expect(
      RESTCORS.exposing(answer, for: get).headers["Access-Control-Expose-Headers"]
        == "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, "
        + "Server, Transfer-Encoding, Range-Unit")
    let noOrigin = HTTPRequest(method: "GET", target: "/rest/v1/items")
    #expect(
      RESTCORS.exposing(answer, for: noOrigin).headers["Access-Control-Expose-Headers"] == nil)
  }
}
