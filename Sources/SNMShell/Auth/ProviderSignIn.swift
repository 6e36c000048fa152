import Foundation
import SNMCrypto
import SNMSupabase

/// `login provider github` (docs/auth.md): GoTrue's OAuth redirect flow finished with PKCE, as
/// a CLI signs in through a browser. snm makes a verifier and its S256 challenge, listens on a
/// free port of 127.0.0.1 (``LoopbackRedirect``) and prints the project's `/authorize` address
/// (on standard error at once, so results stay clean) for a browser to open; the provider's sign-in
/// ends with the project sending the browser to the port with `?code=...`, and the code and the
/// verifier buy the session (`POST /token?grant_type=pkce`). At the prompt, the address the
/// browser was sent to, or its code, may be pasted instead (``PastedRedirect``), as `gh auth
/// login` allows for a browser on another machine. The verifier and the code are secrets: never
/// printed.
///
/// ```swift
/// let session = try await ProviderSignIn(environment: environment, output: output).run("github")
/// ```
struct ProviderSignIn {
  let environment: StatementEnvironment
  let output: StatementOutput

  func run(_ provider: String) async throws -> SupabaseSession {
    let pkce = try PKCEVerifier.generate()
    environment.secrets.register(pkce.verifier)
    let loopback = try LoopbackRedirect()
    defer { loopback.close() }
    let auth = environment.authManager
    let address = auth.oauthSignInURL(
      provider: provider, redirectTo: loopback.url, codeChallenge: pkce.challenge)
    // Standard error itself, not the statement's error output (a script holds that until the
    // statement ends): the address is needed while the statement waits.
    let now = OutputWriter.standardError
    // At the prompt, the address the browser was sent to (or its code) may be pasted instead:
    // a browser on another machine cannot reach this one's loopback port.
    let paste = environment.interactive && isatty(STDIN_FILENO) != 0 ? STDIN_FILENO : nil
    now.write(
      "open this address in a browser to sign in with \(provider):\n  \(address)\n"
        + "waiting for the browser at \(loopback.url) (Ctrl-C stops)\n"
        + (paste == nil
          ? ""
          : "if the browser runs on another machine, paste the address it was sent to"
            + " (or its code) here and press Enter\n"))
    now.flush()
    let query = try await loopback.wait(paste: paste)
    guard let code = query["code"], !code.isEmpty else {
      throw ProviderSignInError(
        provider: provider, code: query["error_code"] ?? query["error"] ?? "",
        reason: query["error_description"] ?? "the redirect carried no code")
    }
    environment.secrets.register(code)
    return try await auth.exchangeCodeForSession(authCode: code, codeVerifier: pkce.verifier)
  }
}

/// The redirect came back with an error instead of a code (GoTrue's `error_code` and
/// `error_description` query members).
struct ProviderSignInError: Error, Sendable, Equatable, CustomStringConvertible {
  var provider: String
  var code: String
  var reason: String

  var description: String {
    let reason = VisibleText.escaped(reason, keepingNewlines: false)
    let code = VisibleText.escaped(code, keepingNewlines: false)
    return "signing in with \(provider) failed: \(reason)" + (code.isEmpty ? "" : " (\(code))")
  }
}
