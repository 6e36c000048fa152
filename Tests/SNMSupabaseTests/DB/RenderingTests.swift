import Foundation
import SNMNetwork
import SNMWire
import Testing

@testable import SNMSupabase

/// What `snm explain` prints: the spec §6 JSON object, curl, and the Swift chain.
@Suite struct RenderingTests {
  let manager = WireCase.manager
  static let uuid = UUID(uuidString: "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b") ?? UUID()

  @Test func explainJSONMatchesTheSpecExample() throws {
    let request = try manager.updateData().setTable("user_info").setBody(["name": "Lee"])
      .setQuery(.equal("id", Self.uuid)).build()
    let expected = try JSONValue(
      parsing: #"""
        {"method": "PATCH", "path": "/rest/v1/user_info",
         "query": [["id", "eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"]],
         "url": "http://127.0.0.1:54321/rest/v1/user_info?id=eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b",
         "headers": {"Content-Type": "application/json", "Prefer": "return=minimal"},
         "body": {"name": "Lee"},
         "swift": "try await remoteDBManager.updateData().setTable(\"user_info\").setBody(...).setQuery(.equal(\"id\", UUID(...))).request()"}
        """#)
    #expect(request.explainJSON() == expected)
    #expect(
      request.explainJSON().objectValue?.keys == [
        "method", "path", "query", "url", "headers", "body", "swift",
      ])
  }

  @Test func explainJSONHasNullBodyForReads() throws {
    let request = try manager.fetchData().setTable("t").setQuery(.select("*")).build()
    #expect(
      request.explainJSON().serialized()
        == #"{"method":"GET","path":"/rest/v1/t","query":[["select","*"]],"#
        + #""url":"http://127.0.0.1:54321/rest/v1/t?select=%2A","headers":{},"body":null,"#
        + #""swift":"try await remoteDBManager.fetchData().setTable(\"t\").setQuery(.select(\"*\")).request()"}"#
    )
  }

  @Test func curlQuotesForShellAndHidesSecrets() throws {
    let request = try manager.updateData().setTable("user_info").setBody(["name": "O'Brien"])
      .setQuery(.equal("nick", "it's")).build()
    #expect(
      request.curlCommand() == """
        curl -X PATCH 'http://127.0.0.1:54321/rest/v1/user_info?nick=eq.it%27s' \\
          -H "apikey: $SUPABASE_ANON_KEY" \\
          -H "Authorization: Bearer $TOKEN" \\
          -H 'Content-Type: application/json' \\
          -H 'Prefer: return=minimal' \\
          -d '{"name":"O'\\''Brien"}'
        """)
    #expect(!request.curlCommand().contains("test-key"))
  }

  @Test func curlForAGetHasNoMethodFlag() throws {
    let request = try manager.fetchData().setTable("t").setQuery(.select("*"), .single).build()
    #expect(
      request.curlCommand(multiline: false)
        == #"curl 'http://127.0.0.1:54321/rest/v1/t?select=%2A' -H "apikey: $SUPABASE_ANON_KEY" "#
        + #"-H "Authorization: Bearer $TOKEN" -H 'Accept: application/vnd.pgrst.object+json'"#)
  }

  /// A chain and the Swift it prints, abbreviated (spec §6) and in full.
  struct SwiftCase: Sendable, CustomTestStringConvertible {
    let name: String
    let chain: WireCase.Chain
    let abbreviated: String
    let full: String
    var testDescription: String { name }
  }

  static let swiftCases: [SwiftCase] = [
    .init(
      name: "filters, groups, modifiers",
      chain: {
        $0.fetchData().setTable("user_info")
          .setQuery(
            .select("*"), .greaterThanOrEqual("age", 3), .ilike("name", "ba*"),
            .or([.lessThan("age", 3), .not(.is("deleted_at", .null))])
          )
          .setQuery(
            .order("name", ascending: false, nulls: .last), .limit(10), .offset(20), .count(.exact))
      },
      abbreviated: #"try await remoteDBManager.fetchData().setTable("user_info")"#
        + #".setQuery(.select("*"), .greaterThanOrEqual("age", 3), .ilike("name", "ba*"), "#
        + #".or([.lessThan("age", 3), .not(.is("deleted_at", .null))]))"#
        + #".setQuery(.order("name", ascending: false, nulls: .last), .limit(10), .offset(20), .count(.exact))"#
        + ".request()",
      full: #"try await remoteDBManager.fetchData().setTable("user_info")"#
        + #".setQuery(.select("*"), .greaterThanOrEqual("age", 3), .ilike("name", "ba*"), "#
        + #".or([.lessThan("age", 3), .not(.is("deleted_at", .null))]))"#
        + #".setQuery(.order("name", ascending: false, nulls: .last), .limit(10), .offset(20), .count(.exact))"#
        + ".request()"),
    .init(
      name: "body, uuid, embeds and quoting",
      chain: {
        $0.insertData().setTable("dog", schema: "pets").setBody([
          "name": "Bori \"B\"", "tags": ["a"], "meta": [:],
        ])
        .setQuery(
          .returning(
            "id", .embed("user_info", as: "owner", join: .inner, "name"),
            .column("age", cast: "text")),
          .equal("owner", uuid), .in("id", [1, "x"]),
          .contains("address", ["zip": 90210] as JSONValue))
      },
      abbreviated:
        #"try await remoteDBManager.insertData().setTable("dog", schema: "pets").setBody(...)"#
        + #".setQuery(.returning("id", .embed("user_info", as: "owner", join: .inner, "name"), "#
        + #".column("age", cast: "text")), .equal("owner", UUID(...)), .in("id", [1, "x"]), "#
        + #".contains("address", ["zip": 90210])).request()"#,
      full: #"try await remoteDBManager.insertData().setTable("dog", schema: "pets")"#
        + #".setBody(["name": "Bori \"B\"", "tags": ["a"], "meta": [:]])"#
        + #".setQuery(.returning("id", .embed("user_info", as: "owner", join: .inner, "name"), "#
        + #".column("age", cast: "text")), "#
        + #".equal("owner", UUID(uuidString: "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b")!), .in("id", [1, "x"]), "#
        + #".contains("address", ["zip": 90210])).request()"#),
    .init(
      name: "rpc get with text search and quantifiers",
      chain: {
        $0.rpc("nearby_dogs", get: true).setBody(["lat": 37.5])
          .setQuery(
            .textSearch("body", "fat & cat", config: "english", type: .websearch),
            .likeAny("name", ["%a%"]),
            .quantified("id", .gt, .all, [1]), .or([.equal("messages.public", true)]),
            .maybeSingle, .custom("k", "v"), .filter("c", operator: "eq", value: "1"))
      },
      abbreviated: #"try await remoteDBManager.rpc("nearby_dogs", get: true).setBody(...)"#
        + #".setQuery(.textSearch("body", "fat & cat", config: "english", type: .websearch), "#
        + #".likeAny("name", ["%a%"]), .quantified("id", .gt, .all, [1]), "#
        + #".or([.equal("messages.public", true)]), .maybeSingle, .custom("k", "v"), "#
        + #".filter("c", operator: "eq", value: "1")).request()"#,
      full: #"try await remoteDBManager.rpc("nearby_dogs", get: true).setBody(["lat": 37.5])"#
        + #".setQuery(.textSearch("body", "fat & cat", config: "english", type: .websearch), "#
        + #".likeAny("name", ["%a%"]), .quantified("id", .gt, .all, [1]), "#
        + #".or([.equal("messages.public", true)]), .maybeSingle, .custom("k", "v"), "#
        + #".filter("c", operator: "eq", value: "1")).request()"#),
    .init(
      name: "upsert options and quoted column names",
      chain: {
        $0.upsertData().setTable("t").setBody([["a": 1]])
          .setQuery(
            .onConflict("a"), .ignoreDuplicates, .columns(["a"]), .equal(#""information.cpe""#, "x")
          )
      },
      abbreviated: #"try await remoteDBManager.upsertData().setTable("t").setBody(...)"#
        + #".setQuery(.onConflict("a"), .ignoreDuplicates, .columns(["a"]), .equal("\"information.cpe\"", "x"))"#
        + ".request()",
      full: #"try await remoteDBManager.upsertData().setTable("t").setBody([["a": 1]])"#
        + #".setQuery(.onConflict("a"), .ignoreDuplicates, .columns(["a"]), .equal("\"information.cpe\"", "x"))"#
        + ".request()"),
  ]

  @Test func selectItemsRenderAsSwift() {
    let items: [SupabaseSelectItem] = [
      .column("age", as: "avg_age", aggregate: "avg", cast: "int"), .count(as: "n"), .count(),
      .column("amount", aggregate: "sum", inputCast: "int", cast: "text"),
      .embed(relation: "a", alias: nil, hints: ["x", "y", "inner"], spread: false, items: ["id"]),
      .embed("b", hint: "fk", "id"), .raw("x"),
    ]
    #expect(
      items.map(\.swiftExpression) == [
        #".column("age", as: "avg_age", aggregate: "avg", cast: "int")"#, #".count(as: "n")"#,
        ".count()", #".column("amount", aggregate: "sum", inputCast: "int", cast: "text")"#,
        #".embed(relation: "a", alias: nil, hints: ["x", "y", "inner"], spread: false, items: ["id"])"#,
        #".embed("b", hint: "fk", "id")"#, #".raw("x")"#,
      ])
  }

  @Test(arguments: swiftCases)
  func swiftChain(_ testCase: SwiftCase) throws {
    let request = try testCase.chain(manager).build()
    #expect(request.swiftChain() == testCase.abbreviated)
    #expect(request.swiftChain(style: .full) == testCase.full)
  }

  @Test func swiftStringsEscape() {
    #expect(SwiftLiteral.string("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u{1}""#)
    #expect(
      SwiftLiteral.json(["a": [1, nil, true], "b": [:]]) == #"["a": [1, nil, true], "b": [:]]"#)
  }
}
