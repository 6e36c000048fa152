import Foundation
import SNMTestSupport
import Testing

@testable import SNMQuery

/// Random and mutated statements must end in statements or diagnostics: no crash, no hang.
///
/// `SNM_FUZZ_SEED=N` replays a run; `SNM_FUZZ_COUNT=N` changes the number of statements (100,000).
@Suite struct FuzzTests {
  static var seed: UInt64 {
    if let text = ProcessInfo.processInfo.environment["SNM_FUZZ_SEED"], let seed = UInt64(text) {
      return seed
    }
    return UInt64.random(in: 0...UInt64.max)
  }

  static var count: Int {
    ProcessInfo.processInfo.environment["SNM_FUZZ_COUNT"].flatMap(Int.init) ?? 100_000
  }

  /// A minute of work: on a thread of its own, so async tests are not held back meanwhile.
  @Test(.timeLimit(.minutes(10)))
  func randomStatementsEndInStatementsOrDiagnostics() async {
    let seed = Self.seed
    let count = Self.count
    let (failures, clean) = await onOwnThread { () -> ([String], Int) in
      var fuzzer = StatementFuzzer(random: SeededGenerator(seed: seed))
      var failures: [String] = []
      var clean = 0
      for index in 0..<count {
        let text = fuzzer.statement()
        if let problem = Self.problem(with: text) {
          failures.append("#\(index) \(text.debugDescription): \(problem)")
          if failures.count >= 5 { break }
        }
        if Parser.parse(text).diagnostics.isEmpty { clean += 1 }
      }
      return (failures, clean)
    }
    #expect(failures.isEmpty, "seed \(seed) (replay with SNM_FUZZ_SEED=\(seed)): \(failures)")
    // The mix must exercise both outcomes, or the fuzzer is not testing much.
    #expect(clean > Self.count / 10, "seed \(seed): only \(clean) clean statements")
    #expect(clean < Self.count * 9 / 10, "seed \(seed): \(clean) clean statements")
  }

  static let compiler = StatementCompiler(
    manager: CompilerSpecTests.manager,
    scope: VariableScope(values: ["a": ["b": [1]]], placeholders: true))

  /// What is wrong with the result of `text`, if anything.
  static func problem(with text: String) -> String? {
    var script = Parser.parse(text, fileName: "fuzz.snm")
    Checker.check(&script, variables: ["a"])
    let size = script.source.bytes.count
    for diagnostic in script.diagnostics {
      let range = diagnostic.range
      guard range.start >= 0, range.start <= range.end, range.end <= size else {
        return "diagnostic range \(range) outside 0..<\(size)"
      }
      if diagnostic.message.text.isEmpty { return "empty message" }
    }
    let rendered = DiagnosticRenderer().render(script.diagnostics, in: script.source)
    if !script.diagnostics.isEmpty && !rendered.contains("error:") {
      return "rendering lost the error"
    }
    for statement in script.statements {
      if statement.isRequest {
        // The compiler and the builder must answer with a request or a diagnostic, never crash.
        do {
          let compiled = try compiler.compile(statement)
          if compiled.request.url.isEmpty { return "empty URL" }
        } catch {
          guard error.range.start >= 0, error.range.end <= size else {
            return "compiler diagnostic range \(error.range) outside 0..<\(size)"
          }
        }
      }
      let canonical = statement.canonicalText
      let again = Parser.parse(canonical)
      let reparsed = again.statements.map(\.canonicalText)
      guard reparsed == [canonical] else {
        return
          "canonical text \(canonical.debugDescription) reparses as \(reparsed) \(again.diagnostics.map(\.message.text))"
      }
    }
    return nil
  }

  @Test(arguments: ["(", "[", "{\"k\": ", "not ", "r("])
  func deepNestingIsADiagnosticNotACrash(_ opener: String) {
    let prefix: String
    switch opener {
    case "(", "not ": prefix = "from t select * where "
    case "r(": prefix = "from t select "
    default: prefix = "from t insert "
    }
    let text = prefix + String(repeating: opener, count: 100_000) + "a eq 1"
    let script = Parser.parse(text)
    #expect(script.diagnostics.map(\.message.id) == ["nesting-too-deep"])
  }

  @Test(.timeLimit(.minutes(2)))
  func manyErrorsAndLongObjectsStayLinear() async {
    let (count, rendered) = await onOwnThread { () -> (Int, String) in
      let errors = String(repeating: "from t selec *\n", count: 20_000)
      var script = Parser.parse(errors, fileName: "many.snm")
      Checker.check(&script)
      return (
        script.diagnostics.count, DiagnosticRenderer().render(script.diagnostics, in: script.source)
      )
    }
    #expect(count == 20_000)
    #expect(rendered.hasPrefix("many.snm:1:8: error:"))
    #expect(rendered.contains("many.snm:20000:8: error:"))
    let (plain, duplicated) = await onOwnThread { () -> ([String], [String]) in
      let keys = (0..<50_000).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
      return (
        Parser.parse("from t insert {\(keys)}").diagnostics.map(\.message.id),
        Parser.parse("from t insert {\(keys), \"k49999\": 1}").diagnostics.map(\.message.id)
      )
    }
    #expect(plain.isEmpty)
    #expect(duplicated == ["duplicate-key"])
  }
}
