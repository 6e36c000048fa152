import Foundation
import Testing

/// The examples in doc comments and Markdown show how to hand `SupabaseDBManager` the session's
/// token. `SessionManager.accessToken` is a `Result`, not a token: the closure must call
/// `requestToken()` (nil when signed out), as `SessionRetryWireTests` does through the wire.
@Suite struct DocExampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func everyTokenClosureInTheDocsCallsRequestToken() throws {
    var closures: [(String, String)] = []
    for (file, text) in try Self.documentation() {
      closures += try Self.tokenClosures(in: text).map { (file, $0) }
    }
    #expect(!closures.isEmpty)
    for (file, closure) in closures {
      #expect(closure.contains("requestToken()"), "\(file): \(closure)")
    }
  }

  /// The bodies of `accessToken: { ... }` and `SupabaseDBManager(...) { ... }` closures.
  static func tokenClosures(in text: String) throws -> [String] {
    let patterns = [#"accessToken:\s*\{([^}]*)\}"#, #"SupabaseDBManager\([^)]*\)\s*\{([^}]*)\}"#]
    return try patterns.flatMap { pattern in
      let expression = try NSRegularExpression(pattern: pattern)
      let range = NSRange(text.startIndex..., in: text)
      return expression.matches(in: text, range: range).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
      }
    }
  }

  /// Doc comments of every Swift source (`///` lines, joined) and the Markdown files.
  static func documentation() throws -> [(String, String)] {
    var found: [(String, String)] = []
    let manager = FileManager.default
    for top in ["Sources", "docs"] {
      let base = root.appendingPathComponent(top)
      guard let walker = manager.enumerator(atPath: base.path) else { continue }
      for case let path as String in walker where path.hasSuffix(".swift") || path.hasSuffix(".md")
      {
        let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
        found.append(("\(top)/\(path)", path.hasSuffix(".md") ? text : docComments(of: text)))
      }
    }
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    found.append(("README.md", readme))
    return found
  }

  static func docComments(of source: String) -> String {
    source.split(separator: "\n").compactMap { line in
      let trimmed = line.drop { $0 == " " }
      return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : nil
    }.joined(separator: "\n")
  }
}
