import SNMNetwork
import SNMSupabase

@testable import SNMQuery

/// libFuzzer entry for the snm language: lexer, parser, checker, compiler and the three `explain`
/// renderings, on arbitrary bytes read as one script.
///
/// Fails (traps) when a diagnostic points outside the source, when a clean statement's canonical
/// text does not parse back to itself, or when a successful explain prints nothing.
/// Built and run by `scripts/fuzz run query`.
@_cdecl("LLVMFuzzerTestOneInput")
public func queryFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let source = Source(text: text, fileName: "fuzz.snm")
  var script = Parser.parse(source)
  Checker.check(&script, variables: ["dog", "n"])
  for diagnostic in script.diagnostics {
    let range = diagnostic.range
    fuzzCheck(
      range.start >= 0 && range.start <= range.end && range.end <= source.bytes.count,
      "diagnostic range \(range) outside the source of \(source.bytes.count) bytes")
    fuzzCheck(!diagnostic.message.text.isEmpty, "diagnostic without a message")
  }
  _ = DiagnosticRenderer().render(script.diagnostics, in: source)
  // The statements `snm check` makes (CheckingParser: what no check reads left out) must get
  // every diagnostic the whole tree gets, in the same order.
  var checking = CheckingParser(source)
  var checker = Checker(variables: ["dog", "n"])
  while let statement = checking.nextStatement() { checker.check(statement) }
  var checked = checking.parseDiagnostics
  if !checker.diagnostics.isEmpty {
    checked += checker.diagnostics
    checked.sort { $0.range.start < $1.range.start }
  }
  fuzzCheck(
    checked == script.diagnostics,
    "checking parser: \(checked.map(\.message.text)) vs the tree's \(script.diagnostics.map(\.message.text))"
  )
  _ = Lexer.tokenize(source).needsContinuation
  _ = CompletionContext.at(offset: source.bytes.count, in: text)
  _ = CompletionContext.at(offset: source.bytes.count / 2, in: text)
  if script.diagnostics.isEmpty {
    for statement in script.statements {
      let canonical = statement.canonicalText
      let again = Parser.parse(canonical).statements.map(\.canonicalText)
      fuzzCheck(again == [canonical], "canonical text \(canonical) reparses as \(again)")
    }
  }
  var scope = VariableScope(environment: ["TOKEN": "t", "NAME": "Kim"])
  scope["dog"] = ["id": 7, "name": "Bori"]
  scope["n"] = 3
  let compiler = StatementCompiler(manager: queryFuzzManager, scope: scope)
  for statement in script.statements {
    guard let compiled = try? compiler.compile(statement) else { continue }
    for format in [ExplainFormat.json, .curl, .text] {
      let rendered = RequestExplainer.render(compiled.request, format: format)
      fuzzCheck(!rendered.isEmpty, "explain rendered nothing")
    }
  }
  return 0
}

/// One manager for every input: each `SupabaseDBManager()` makes a provider and its transports.
let queryFuzzManager = SupabaseDBManager(
  config: SupabaseConfig(url: "http://127.0.0.1:54321", anonKey: ""))
