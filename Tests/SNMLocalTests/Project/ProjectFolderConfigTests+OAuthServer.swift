import Foundation
import Testing

@testable import SNMLocal

extension ProjectFolderConfigTests {
  /// `[auth.oauth_server]`: `enabled` is the project's switch; off, the table asks for nothing;
  /// on, what the local project does not serve of it is listed.
  @Test func theOAuthServerTableIsItsSwitch() throws {
    let off = try ProjectFolderConfig(
      folder: try folder(
        """
        [auth.oauth_server]
        enabled = false
        authorization_url_path = "/oauth/consent"
        allow_dynamic_registration = true
        """))
    #expect(off.authSwitches == ["oauth_server": false])
    #expect(off.unsupported.isEmpty)
    let on = try ProjectFolderConfig(
      folder: try folder(
        """
        [auth.oauth_server]
        enabled = true
        authorization_url_path = "/oauth/consent"
        allow_dynamic_registration = true
        """))
    #expect(on.authSwitches == ["oauth_server": true])
    #expect(
      on.unsupported.map { "\($0.position.line) \($0.key) \($0.here ?? "-")" } == [
        "3 [auth.oauth_server] authorization_url_path -",
        "4 [auth.oauth_server] allow_dynamic_registration no dynamic client registration",
      ])
  }
}
