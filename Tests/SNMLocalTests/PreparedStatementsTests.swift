import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

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

  @Test func aUseCountsInPlace() {
    var prepared = filled(3)
    #expect(prepared.use("q0") == "snm_p1" && prepared.use("missing") == nil)
    #expect(prepared.count == 3)
    #expect(prepared.makeRoom(for: ["new"], limit: 3) == ["snm_p2"], "q0 was used last")
  }

  /// The statements found last are found again without hashing; none is found from there once
  /// the cache has gained entries (the table grew, indices moved) or lost it.
  @Test func recentlyFoundStatementsStayRightAsTheCacheChanges() {
    var prepared = filled(2)
    #expect(prepared.use("q0") == "snm_p1" && prepared.use("q1") == "snm_p2")
    #expect(prepared.use(String("q0".reversed().reversed())) == "snm_p1", "an equal text")
    for index in 2..<40 { prepared.add("q\(index)", name: prepared.newName()) }
    #expect(prepared.use("q0") == "snm_p1" && prepared.use("q1") == "snm_p2")
    #expect(prepared.use("q39") == "snm_p40")
    let evicted = prepared.makeRoom(for: ["new"], limit: 40)
    #expect(evicted == ["snm_p3"], "q2 was used longest ago")
    #expect(prepared.use("q2") == nil && prepared.use("q1") == "snm_p2")
    var small = filled(3)
    #expect(small.use("q1") == "snm_p2" && small.use("q2") == "snm_p3")
    #expect(small.use("q0") == "snm_p1")
    #expect(small.makeRoom(for: ["x"], limit: 3) == ["snm_p2"], "q1, found lately, went")
    #expect(small.use("q1") == nil && small.use("q2") == "snm_p3" && small.use("q0") == "snm_p1")
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

/// Statement parameters as C strings: one buffer, NULL for nil, 22021 for a NUL byte.
@Test func parametersBecomeCStrings() throws {
  let texts = try PGConnection.withCStrings(["a", nil, "", "두부 🐕"]) { pointers in
    pointers.map { $0.map { String(cString: $0) } }
  }
  #expect(texts == ["a", nil, "", "두부 🐕"])
  #expect(try PGConnection.withCStrings([]) { $0.count } == 0)
  #expect(throws: PGError.self) { try PGConnection.withCStrings(["ok", "a\u{0}b"]) { _ in 0 } }
  #expect("a\u{0}b".containsNUL && !"ab".containsNUL && !"".containsNUL)
  #expect("xa\u{0}".dropFirst().containsNUL)
}

/// Header names are lowercased only when they need it.
@Test func headerNamesAreLowercased() {
  #expect(RequestSettings.lowercasedName("apikey") == "apikey")
  #expect(RequestSettings.lowercasedName("X-Client-Info") == "x-client-info")
}

/// `request.headers` and `request.cookies`: lowercase names, the last of a repeated header in
/// its place, cookies apart, values escaped as JSON.
@Test func theRequestsHeadersBecomeSettings() {
  let headers: HTTPHeaders = [
    "Host": "x", "Cookie": "a=1; b = 2; a=4", "X-A": "q\"", "x-a": "r\u{1}", "Accept": "두부",
  ]
  let settings = RequestSettings.headers(headers)
  #expect(settings.headers == #"{"host":"x","x-a":"r\u0001","accept":"두부"}"#)
  #expect(settings.cookies == #"{"b":"2","a":"4"}"#)
  // A name that is no token (never one the server reads) is escaped; `cookie` in any case.
  let odd = RequestSettings.headers(["X\"Q": "1", "Cookie": "c=1", "cookie": "d=2", "x\"q": "2"])
  #expect(odd.headers == #"{"x\"q":"2"}"# && odd.cookies == #"{"c":"1","d":"2"}"#)
  let none = RequestSettings.headers([:])
  #expect(none.headers == "{}" && none.cookies == "{}")
}

/// Header values trimmed of a set of characters, by scalars.
@Test(arguments: [
  (" \tab \t", " \t", "ab"), ("\"x\"", "\"", "x"), ("  ", " ", ""), (" e\u{301} ", " ", "e\u{301}"),
  ("return=minimal", " \t", "return=minimal"),
])
func textIsTrimmed(_ text: String, _ set: String, _ trimmed: String) {
  #expect(text.trimmingCharacters(in: set) == trimmed)
  #expect(text[...].trimmingCharacters(in: set) == trimmed)
}

/// A read's body column arrives as bytes (`PGResultForm.bytesColumn`); other statements' as text.
@Test func theResultRowsBodyIsItsBytes() {
  var result = PGResult(rows: [["3", "1", nil, nil, nil, nil]])
  result.columnBytes = [Array(#"[{"name":"두부"}]"#.utf8)]
  let row = ResultRow(result)
  #expect(row.total == 3 && row.pageTotal == 1)
  #expect(row.bodyUTF8 == Array(#"[{"name":"두부"}]"#.utf8) && row.body == #"[{"name":"두부"}]"#)
  let text = ResultRow(PGResult(rows: [["3", "1", "[]", nil, nil, nil]]))
  #expect(text.bodyUTF8 == Array("[]".utf8) && text.body == "[]")
  #expect(ResultRow(PGResult()).bodyUTF8.isEmpty)
}
