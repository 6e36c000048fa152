import Testing

@testable import SNMGateway

/// `MD5Digest`, Storage's ETag: RFC 1321's test suite, and the same digest however the bytes
/// are fed.
@Suite struct MD5DigestTests {
  static func md5(_ pieces: [String]) throws -> String {
    let digest = try MD5Digest()
    for piece in pieces { try Array(piece.utf8).withUnsafeBytes { try digest.update($0) } }
    return Crypto.hex(try digest.finish())
  }

  @Test(arguments: [
    ("", "d41d8cd98f00b204e9800998ecf8427e"),
    ("a", "0cc175b9c0f1b6a831c399e269772661"),
    ("abc", "900150983cd24fb0d6963f7d28e17f72"),
    ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
    ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
    (
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
      "57edf4a22be3c955ac49da2e2107b67a"
    ),
  ])
  func rfc1321Vectors(input: String, digest: String) throws {
    #expect(try Self.md5([input]) == digest)
  }

  @Test func piecesDigestAsTheWhole() throws {
    let text = "The quick brown fox jumps over the lazy dog"
    #expect(try Self.md5([text]) == "9e107d9d372bb6826bd81d3542a419d6")
    #expect(
      try Self.md5(["The quick", "", " brown fox ", "jumps over the lazy dog"])
        == "9e107d9d372bb6826bd81d3542a419d6")
    #expect(try Self.md5(text.map { String($0) }) == "9e107d9d372bb6826bd81d3542a419d6")
  }
}
