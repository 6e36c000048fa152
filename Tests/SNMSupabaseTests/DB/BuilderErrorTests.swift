import Foundation
import SNMNetwork
import Testing

@testable import SNMSupabase

/// Chains that must not become requests: a clear thrown error, never a crash.
@Suite struct BuilderErrorTests {
  let manager = WireCase.manager

  /// The compile-time guard: `request()` and `build()` exist only once a table is set. Uncomment the
  /// line below and the file stops compiling with "referencing instance method 'request()' on
  /// 'SupabaseDBRequestBuilder' requires the types 'SupabaseDBPhase.NeedsTable' and
  /// 'SupabaseDBPhase.Ready' be equivalent".
  @Test func tableIsRequiredAtCompileTime() throws {
    // _ = try await manager.fetchData().setQuery(.select("*")).request()
    let ready = manager.fetchData().setQuery(.select("*")).setTable("dog")
    #expect(try ready.build().endpoint.path == "/rest/v1/dog")
  }

  /// One chain that is refused when it is built, and the message the user sees.
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let chain: WireCase.Chain
    let error: SupabaseDBError
    let message: String
    var testDescription: String { name }
  }

  static let cases: [ErrorCase] = [
    .init(
      name: "empty table on the language's path", chain: { $0.start(.fetch).setTable("") },
      error: .missingTable(.fetch),
      message: "fetchData() needs a table: call setTable(_:) (from <table> in snm)"),
    .init(
      name: "blank table", chain: { $0.deleteData().setTable("  ").setQuery(.equal("id", 1)) },
      error: .missingTable(.delete),
      message: "deleteData() needs a table: call setTable(_:) (from <table> in snm)"),
    .init(
      name: "rpc without a function", chain: { $0.rpc("") },
      error: .missingTable(.rpc(function: "", get: false)),
      message: "rpc() needs a function name"),
    .init(
      name: "insert without a body", chain: { $0.start(.insert).setTable("dog") },
      error: .missingBody(.insert),
      message: "insertData() needs a body: call setBody(_:) (a JSON object after the action in snm)"
    ),
    .init(
      name: "update without a body",
      chain: { $0.updateData().setTable("dog").setQuery(.equal("id", 1)) },
      error: .missingBody(.update),
      message: "updateData() needs a body: call setBody(_:) (a JSON object after the action in snm)"
    ),
    .init(
      name: "fetch with a body", chain: { $0.fetchData().setTable("dog").setBody(["a": 1]) },
      error: .unexpectedBody(.fetch), message: "fetchData() takes no body"),
    .init(
      name: "update with an array", chain: { $0.updateData().setTable("dog").setBody([["a": 1]]) },
      error: .invalidBody(.update, reason: "must be a JSON object, not an array"),
      message: "updateData() body must be a JSON object, not an array"),
    .init(
      name: "insert a number", chain: { $0.insertData().setTable("dog").setBody(3) },
      error: .invalidBody(
        .insert, reason: "must be a JSON object or an array of objects, not a number"),
      message: "insertData() body must be a JSON object or an array of objects, not a number"),
    .init(
      name: "insert an array holding a string",
      chain: { $0.insertData().setTable("dog").setBody([["a": 1], "x"]) },
      error: .invalidBody(
        .insert, reason: "must be an object or an array of objects, not an array holding a string"),
      message:
        "insertData() body must be an object or an array of objects, not an array holding a string"),
    .init(
      name: "rpc get with an array body", chain: { $0.rpc("f", get: true).setBody([1]) },
      error: .invalidBody(
        .rpc(function: "f", get: true),
        reason: "must be a JSON object of arguments for a GET call, not an array"),
      message:
        #"rpc("f", get: true) body must be a JSON object of arguments for a GET call, not an array"#
    ),
    .init(
      name: "or mixing embeds",
      chain: {
        $0.fetchData().setTable("t").setQuery(.or([.equal("messages.a", 1), .equal("b", 2)]))
      },
      error: .invalidParameter(
        "an or/and group cannot mix columns of different embedded tables (messages, the table itself)"
      ),
      message:
        "an or/and group cannot mix columns of different embedded tables (messages, the table itself)"
    ),
    .init(
      name: "or with a foreign embed",
      chain: {
        $0.fetchData().setTable("t").setQuery(
          .or([.equal("cities.a", 1)], referencedTable: "messages"))
      },
      error: .invalidParameter("a group for messages names columns of another table: cities"),
      message: "a group for messages names columns of another table: cities"),
    .init(
      name: "limit inside or", chain: { $0.fetchData().setTable("t").setQuery(.or([.limit(1)])) },
      error: .invalidParameter(
        "only filters and or/and groups can go inside or(...), and(...) or not(...)"),
      message: "only filters and or/and groups can go inside or(...), and(...) or not(...)"),
    .init(
      name: "not of a modifier", chain: { $0.fetchData().setTable("t").setQuery(.not(.single)) },
      error: .invalidParameter(
        "only filters and or/and groups can go inside or(...), and(...) or not(...)"),
      message: "only filters and or/and groups can go inside or(...), and(...) or not(...)"),
    .init(
      name: "empty or", chain: { $0.fetchData().setTable("t").setQuery(.or([])) },
      error: .invalidParameter("an or/and group needs at least one condition"),
      message: "an or/and group needs at least one condition"),
    .init(
      name: "single and maybe single",
      chain: { $0.fetchData().setTable("t").setQuery(.single, .maybeSingle) },
      error: .invalidParameter("single and maybe single cannot both be given"),
      message: "single and maybe single cannot both be given"),
    .init(
      name: "returning on a read",
      chain: { $0.fetchData().setTable("t").setQuery(.returning("id")) },
      error: .invalidParameter("returning applies to insert, update, upsert, put and delete"),
      message: "returning applies to insert, update, upsert, put and delete"),
    .init(
      name: "ignore duplicates on insert",
      chain: {
        $0.insertData().setTable("t").setBody(["a": 1]).setQuery(.ignoreDuplicates)
      },
      error: .invalidParameter("ignore and merge duplicates apply to upsert"),
      message: "ignore and merge duplicates apply to upsert"),
    .init(
      name: "csv with single", chain: { $0.fetchData().setTable("t").setQuery(.csv, .single) },
      error: .invalidParameter("csv cannot be combined with single or maybe single"),
      message: "csv cannot be combined with single or maybe single"),
  ]

  @Test(arguments: cases)
  func refusesWithAClearMessage(_ testCase: ErrorCase) async {
    #expect(throws: testCase.error) { try testCase.chain(manager).build() }
    #expect(testCase.error.description == testCase.message)
    // request() refuses the same way, before asking for a token or sending anything.
    await #expect(throws: testCase.error) { try await testCase.chain(manager).request() }
  }

  @Test func encodableBodiesAreAccepted() throws {
    struct Dog: Encodable { let name: String }
    let request = try manager.insertData().setTable("dog").setBody(encoding: Dog(name: "Bori"))
      .build()
    #expect(request.body == ["name": "Bori"])
  }
}
