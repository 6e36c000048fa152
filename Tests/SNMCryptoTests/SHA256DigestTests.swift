import Testing

@testable import SNMCrypto

/// The SHA-256 of the session's key marks (SNMCrypto's own, not libcrypto's): FIPS 180-4's
/// examples and NIST's short and long message vectors, and libcrypto's digest at every length
/// across the padding's block boundaries.
@Suite struct SHA256DigestTests {
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }

  @Test func nistExamples() {
    let vectors: [(String, String)] = [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
          + "lmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ]
    for (message, expected) in vectors {
      #expect(Self.hex(SHA256Digest.digest(Array(message.utf8))) == expected, "\(message)")
    }
  }

  @Test func nistShortMessageVectors() {
    // SHA256ShortMsg.rsp (NIST CAVP): Len = 8, Msg = d3; Len = 16, Msg = 11af.
    #expect(
      Self.hex(SHA256Digest.digest([0xd3]))
        == "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1")
    #expect(
      Self.hex(SHA256Digest.digest([0x11, 0xaf]))
        == "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98")
  }

  @Test func aMillionAs() {
    #expect(
      Self.hex(SHA256Digest.digest([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func libcryptoAgreesAtEveryLengthUpToThreeBlocks() throws {
    // PKCEVerifier's challenge is base64url(libcrypto's SHA-256 of the verifier).
    for length in 0...200 {
      // "é" is two bytes: every byte length from 0 to 200.
      let text =
        String(repeating: "é", count: length / 2) + String(repeating: "k", count: length % 2)
      let fromLibcrypto = try PKCEVerifier(verifier: text).challenge
      #expect(SHA256Digest.base64URL(of: text) == fromLibcrypto, "length \(length)")
    }
  }

  @Test func aMarkIsFortyThreeCharactersOfBase64URL() {
    #expect(SHA256Digest.base64URL(of: "abc") == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
  }
}
