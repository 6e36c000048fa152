/// What the gateway checks before a service sees a request (`GatewayService.admission`).
public enum GatewayAdmission: Sendable, Equatable {
  /// The project's API key is required; the Bearer token (else the key's own claims) must verify
  /// and name a role the gateway may assume, or the answer is PostgREST's 401/403 (REST).
  case verifiedRole
  /// The project's API key is required; the service reads the token itself (Auth).
  case apiKey
  /// An API key, when sent, must be the project's; the token then decides who calls, and one
  /// that does not verify is remembered for the routes that refuse it (Storage).
  case optionalKey
  /// Nothing: the service checks what it needs (the inbox, with `isServiceCredential`).
  case open
}
