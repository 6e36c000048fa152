import Foundation
import SNMNetwork
import Testing

@testable import SNMSupabase

/// One statement of the language spec (or one encoding case) as a builder chain, with the request
/// it must make.
struct WireCase: Sendable, CustomTestStringConvertible {
  typealias Chain = @Sendable (SupabaseDBManager) -> SupabaseDBRequestBuilder<SupabaseDBPhase.Ready>

  let statement: String
  let chain: Chain
  let method: HTTPMethod
  let path: String
  let query: [[String]]
  let headers: [[String]]
  let body: String?
  /// The exact URL, when the case pins it.
  let url: String?

  init(
    _ statement: String, _ method: HTTPMethod, _ path: String, query: [[String]] = [],
    headers: [[String]] = [], body: String? = nil, url: String? = nil, chain: @escaping Chain
  ) {
    self.statement = statement
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.url = url
    self.chain = chain
  }

  var testDescription: String { statement }

  static let base = "http://127.0.0.1:54321"
  static let manager = SupabaseDBManager(config: SupabaseConfig(url: base, anonKey: "test-key"))

  /// Builds the chain and checks every part of the request.
  func check() throws {
    let request = try chain(Self.manager).build()
    #expect(request.endpoint.method == method)
    #expect(request.endpoint.path == path)
    #expect(request.query.map { [$0.name, $0.value] } == query)
    #expect(request.endpoint.headers.fields.map { [$0.name, $0.value] } == headers)
    #expect(request.endpoint.body.map { String(decoding: $0, as: UTF8.self) } == body)
    #expect(request.body?.serialized() == body)
    if let url { #expect(request.url == url) }
    // Independently of the encoder: the URL's query holds only unreserved bytes and %XX escapes,
    // and splitting and decoding it gives back the pairs.
    let encoded =
      request.url.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    #expect(request.url.hasPrefix(Self.base + path))
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%=&")
    #expect(encoded.allSatisfy { allowed.contains($0) }, "unencoded byte in \(encoded)")
    let decoded =
      encoded.isEmpty
      ? []
      : encoded.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
          String($0).removingPercentEncoding ?? "<bad escape>"
        }
      }
    #expect(decoded == query)
  }
}
