import Testing

@testable import SNMLocal

/// The per-connection cache of prepared statements: least recently used out first, names never
/// reused, and never a statement the pipeline at hand needs.
@Suite struct PreparedStatementsTests {
  func filled(_ count: Int) -> PreparedStatements {
    var prepared = PreparedStatements()
    for index in 0..<count { prepared.add("q\(index)", name: prepared.newName()) }
    return prepared
  }

  @Test func theLeastRecentlyUsedMakeRoom() {
    var prepared = filled(4)
    #expect(prepared.use("q0") == "snm_p1")
    let evicted = prepared.makeRoom(for: ["new1", "new2", "q1"], limit: 4)
    #expect(evicted == ["snm_p3", "snm_p4"], "q2 and q3 were used longest ago; q1 is needed")
    #expect(prepared.count == 2)
    #expect(prepared.name(of: "q2") == nil && prepared.name(of: "q1") == "snm_p2")
    #expect(prepared.newName() == "snm_p5", "names are never reused")
  }

  @Test func nothingIsEvictedWhileThereIsRoom() {
    var prepared = filled(3)
    #expect(prepared.makeRoom(for: ["q0", "q1", "new"], limit: 4).isEmpty)
    #expect(prepared.makeRoom(for: ["a", "b"], limit: 4) == ["snm_p1"])
  }
}

/// `select=` trees past what one request may ask Postgres to plan.
@Suite struct SelectLimitsTests {
  static func embeds(_ count: Int, depth: Int = 1) -> String {
    func nested(_ level: Int) -> String { level == 0 ? "id" : "id,e:t(\(nested(level - 1)))" }
    return (0..<count).map { "a\($0):t(\(nested(depth - 1)))" }.joined(separator: ",")
  }

  @Test(arguments: [(20, 1, true), (21, 1, false), (2, 8, true), (1, 9, false), (3, 7, false)])
  func counted(_ count: Int, _ depth: Int, _ allowed: Bool) throws {
    let items = try SelectParser.parse(Self.embeds(count, depth: depth))
    let measured = SelectLimits.measure(items)
    #expect(measured.embeds == count * depth && measured.depth == depth)
    if allowed {
      try SelectLimits().check(items)
    } else {
      #expect(throws: RESTError.self) { try SelectLimits().check(items) }
    }
  }
}

/// The transaction prelude with a role's own settings (`ALTER ROLE anon SET ...`).
@Test func thePreludeSetsTheRolesSettings() {
  #expect(RESTGateway.prelude(readOnly: false, settings: 0) == RESTGateway.prelude)
  #expect(
    RESTGateway.prelude(readOnly: true, settings: 1)
      == RESTGateway.prelude + ", set_config($3, $4, true)"
      + ", set_config('transaction_read_only', 'on', true)")
}
