import Testing

@testable import SNMQuery

/// `invoke` and `request`: what they parse to and print back as.
@Suite struct FunctionsStatementTests {
  @Test func anAnswerFileParsesAndPrintsBack() throws {
    let script = Parser.parse(
      "invoke reports/pdf get > 'r.pdf'\nrequest post '/x' body {\"a\": 1} header k 'v' > \"${d}/o\""
    )
    #expect(script.diagnostics.isEmpty)
    #expect(
      script.statements.map(\.canonicalText) == [
        #"invoke "reports/pdf" get > "r.pdf""#,
        #"request post "/x" body {"a": 1} header "k" "v" > "${d}/o""#,
      ])
    guard case .functions(let invoke) = try #require(script.statements.first).kind else {
      Issue.record("an invoke")
      return
    }
    #expect(invoke.outputFile?.path == "r.pdf")
    #expect(!Parser.parse("invoke hello > 'a' > 'b'").diagnostics.isEmpty)
    #expect(!Parser.parse("invoke hello >").diagnostics.isEmpty)
  }
}
