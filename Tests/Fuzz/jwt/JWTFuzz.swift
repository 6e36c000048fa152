import SNMWire

@testable import SNMGateway

/// libFuzzer entry for the JWT decoder: `JWTSigner.verify` on arbitrary bytes as a token, then on a
/// token signed with the right secret whose header and payload are the input's two halves, so the
/// claim checks (`exp`, `nbf`, `iat`, `aud`, `role`) see arbitrary JSON behind a valid signature.
///
/// Fails (traps) when a forged token is accepted, when a refusal has no PostgREST code or message,
/// or when accepted claims are not a JSON object. Built and run by `scripts/fuzz run jwt`.
@_cdecl("LLVMFuzzerTestOneInput")
public func jwtFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let signer = JWTSigner(secret: Array("fuzz-secret-with-at-least-32-characters".utf8))
  let now = 1_700_000_000.0

  // Arbitrary bytes as a token: only a token carrying the right HMAC may pass, and no fuzzer finds one.
  let token = String(decoding: bytes, as: UTF8.self)
  if let claims = JWTFuzz.verify(signer, token, now: now) {
    fuzzCheck(false, "a token not signed with the secret was accepted: \(claims)")
  }
  _ = RequestAuth.bearerToken("Bearer " + token)

  // The input's halves as header and payload, correctly signed.
  let middle = bytes.count / 2
  let header = Base64URL.encode(Array(bytes[..<middle]))
  let payload = Base64URL.encode(Array(bytes[middle...]))
  let input = header + "." + payload
  guard let mac = try? Crypto.hmacSHA256(key: signer.secret, data: Array(input.utf8)) else {
    return 0
  }
  let signed = input + "." + Base64URL.encode(mac)
  if let claims = JWTFuzz.verify(signer, signed, now: now) {
    fuzzCheck(claims.objectValue != nil, "claims are not an object")
    let auth = RequestAuth(
      role: claims["role"]?.stringValue ?? "anon", claims: claims, isAnonymous: false)
    fuzzCheck((try? JSONValue(parsing: auth.claimsJSON)) == claims, "claims do not round-trip")
    _ = auth.userID
  }
  // A changed signature must fail (the first character: the last one carries padding bits).
  let flipped = input + "." + (signed.hasSuffix(".A") ? "B" : "A")
  var changed = Array(signed.utf8)
  let signatureStart = input.utf8.count + 1
  if signatureStart < changed.count {
    changed[signatureStart] = changed[signatureStart] == UInt8(ascii: "A") ? 66 : 65
    let forged = String(decoding: changed, as: UTF8.self)
    fuzzCheck(JWTFuzz.verify(signer, forged, now: now) == nil, "a changed signature passed")
  }
  fuzzCheck(JWTFuzz.verify(signer, flipped, now: now) == nil, "a one-letter signature passed")
  return 0
}

enum JWTFuzz {
  /// The claims, or nil after checking the refusal carries a code and a message.
  static func verify(_ signer: JWTSigner, _ token: String, now: Double) -> JSONValue? {
    var accepted: JSONValue?
    for audience in [String?.none, "authenticated"] {
      do {
        let claims = try signer.verify(token, now: now, audience: audience)
        if audience == nil { accepted = claims }
      } catch {
        fuzzCheck(error.postgrestCode.hasPrefix("PGRST"), "refusal without a PGRST code")
        fuzzCheck(!error.message.isEmpty, "refusal without a message")
        _ = HTTPResponse.jwtFailure(error)
      }
    }
    return accepted
  }
}
