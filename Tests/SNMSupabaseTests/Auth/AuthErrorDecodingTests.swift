import Foundation
import SNMNetwork
import Testing

@testable import SNMSupabase

struct ErrorBodyCase: Sendable, CustomStringConvertible {
  let name: String
  let status: Int
  let body: String
  let header: String?
  let code: AuthErrorCode
  let message: String
  var description: String { name }
}

@Suite struct AuthErrorDecodingTests {
  @Test(arguments: [
    ErrorBodyCase(
      name: "dated (2024-01-01)", status: 400,
      body:
        #"{"code":"refresh_token_already_used","message":"Invalid Refresh Token: Already Used"}"#,
      header: "refresh_token_already_used", code: .refreshTokenAlreadyUsed,
      message: "Invalid Refresh Token: Already Used"),
    ErrorBodyCase(
      name: "legacy", status: 400,
      body: #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#,
      header: nil, code: .invalidCredentials, message: "Invalid login credentials"),
    ErrorBodyCase(
      name: "oauth", status: 400,
      body: #"{"error":"invalid_grant","error_description":"Invalid Refresh Token"}"#,
      header: nil, code: "invalid_grant", message: "Invalid Refresh Token"),
    ErrorBodyCase(
      name: "html from a proxy", status: 502, body: "<html>bad gateway</html>", header: nil,
      code: .unknown, message: "server error"),
    ErrorBodyCase(
      name: "empty body with header", status: 403, body: "", header: "session_not_found",
      code: .sessionNotFound, message: "forbidden"),
  ])
  func everyFormatGivesCodeAndMessage(_ example: ErrorBodyCase) {
    let error = SupabaseAuthError(
      status: example.status, body: Data(example.body.utf8), headerCode: example.header)
    #expect(error.status == example.status)
    #expect(error.code == example.code)
    #expect(error.message == example.message)
  }

  @Test func weakPasswordReasonsArePrinted() {
    let body =
      #"{"code":"weak_password","message":"Password should be at least 6 characters.","weak_password":{"reasons":["length"]}}"#
    let error = SupabaseAuthError(status: 422, body: Data(body.utf8))
    #expect(error.weakPasswordReasons == ["length"])
    #expect(
      error.description
        == "auth server answered 422: Password should be at least 6 characters. (weak_password)"
        + "\nweak password: length")
  }

  @Test func endingCodesAreTheFourOfSupabaseSwift() {
    for code in [
      "refresh_token_not_found", "refresh_token_already_used", "session_not_found",
      "session_expired",
    ] {
      #expect(SupabaseAuthError(status: 400, code: AuthErrorCode(code), message: "").endsSession)
    }
    #expect(!SupabaseAuthError(status: 400, code: .invalidCredentials, message: "").endsSession)
  }

  @Test func authCodesAreTheServerErrorCodeTypeOfEveryLayer() {
    let body = #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#
    let code: SNMErrorCode = SupabaseAuthError(status: 400, body: Data(body.utf8)).code
    #expect(code == .invalidCredentials)
    #expect(code != .invalidQuery)
    #expect(SNMErrorCode.endingSession.contains("session_expired"))
    #expect("\(SNMErrorCode.refreshTokenAlreadyUsed)" == "refresh_token_already_used")
  }
}
