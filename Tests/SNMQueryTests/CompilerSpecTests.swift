import SNMNetwork
import SNMSupabase
import Testing

@testable import SNMQuery

/// Every spec §2 example compiles, through the builder, to the request the spec table gives (an
/// update or delete without `returning` also asks for the count, `count=exact`, so the shell can
/// say how many rows changed).
@Suite struct CompilerSpecTests {
  static let manager = SupabaseDBManager(
    config: SupabaseConfig(url: RequestExplainer.defaultURL, anonKey: ""))

  static func request(_ text: String, scope: VariableScope = VariableScope()) throws
    -> SupabaseDBRequest
  {
    let script = Parser.parse(text)
    guard script.diagnostics.isEmpty, let statement = script.statements.first else {
      throw Diagnostic(
        .builderRefused("parse failed: \(script.diagnostics.map(\.message.text))"), at: .point(0))
    }
    return try StatementCompiler(manager: manager, scope: scope).compile(statement).request
  }

  @Test(arguments: SpecExample.all)
  func specExample(_ example: SpecExample) throws {
    let request = try Self.request(example.statement)
    #expect(request.endpoint.method.rawValue == example.method)
    #expect(request.endpoint.path == example.path)
    #expect(request.query.map { [$0.name, $0.value] } == example.query)
    var headers: [[String]] = []
    for field in request.endpoint.headers { headers.append([field.name, field.value]) }
    #expect(headers == example.headers.map { [$0.0, $0.1] })
    #expect((request.body ?? .null) == example.body)
  }

  @Test func explainJSONMatchesTheSpecObject() throws {
    let text =
      "from user_info update {\"name\": \"Lee\"} where id eq 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
    let json = try Self.request(text).explainJSON().serialized()
    #expect(
      json
        == #"{"method":"PATCH","path":"/rest/v1/user_info","query":[["id","eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"]],"#
        + #""url":"http://127.0.0.1:54321/rest/v1/user_info?id=eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b","#
        + #""headers":{"Content-Type":"application/json","Prefer":"return=minimal,count=exact"},"#
        + #""body":{"name":"Lee"},"swift":"try await remoteDBManager.updateData()"#
        + #".setTable(\"user_info\").setBody(...).setQuery(.equal(\"id\", UUID(...)), .count(.exact))"#
        + #".request()"}"#
    )
  }
}
