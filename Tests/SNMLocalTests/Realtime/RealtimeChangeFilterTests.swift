import SNMWire
import Testing

@testable import SNMLocal
@testable import SNMLocalRealtime

@Suite struct RealtimeChangeFilterTests {
  private func passes(_ filter: String, _ record: JSONObject) throws -> Bool {
    try RealtimeChangeFilter(parsing: filter).matches(record)
  }

  @Test func operatorsCompareNumbersAsNumbersAndTextAsText() throws {
    let row: JSONObject = ["id": 10, "task": "b", "done": true, "gone": nil]
    #expect(try passes("id=eq.10", row))
    #expect(try passes("id=eq.10.0", row))
    #expect(try !passes("id=neq.10", row))
    #expect(try passes("id=gt.9", row) && passes("id=gte.10", row))
    #expect(try passes("id=lt.11", row) && passes("id=lte.10", row))
    #expect(try !passes("id=lt.9", row))
    #expect(try passes("task=gt.a", row) && !passes("task=gt.c", row))
    #expect(try passes("done=eq.true", row))
    #expect(try passes("task=in.(a,b,c)", row) && !passes("task=in.(x,y)", row))
    #expect(try passes(#"task=eq."b""#, row))
    // A null or missing column never matches, whatever the operator.
    #expect(try !passes("gone=neq.x", row) && !passes("nope=neq.x", row))
    // A number column against text that is no number: no match, no crash.
    #expect(try !passes("id=eq.abc", row))
  }

  @Test func refusalsSayWhy() {
    #expect(throws: RealtimeChangeFilterError("filter id is not column=operator.value")) {
      try RealtimeChangeFilter(parsing: "id")
    }
    #expect(
      throws: RealtimeChangeFilterError(
        "filter id=like.x: the operator must be one of eq, neq, lt, lte, gt, gte, in")
    ) { try RealtimeChangeFilter(parsing: "id=like.x") }
    #expect(throws: RealtimeChangeFilterError("filter id=in.1: in takes a list (a,b,...)")) {
      try RealtimeChangeFilter(parsing: "id=in.1")
    }
    let many = "(" + (0...100).map(String.init).joined(separator: ",") + ")"
    #expect(throws: RealtimeChangeFilterError("filter id=in.\(many): in takes at most 100 values"))
    {
      try RealtimeChangeFilter(parsing: "id=in.\(many)")
    }
  }

  @Test func conditionsSplitOutsideListsAndQuotes() {
    #expect(
      RealtimeChangeFilter.conditions("a=eq.1,b=in.(x,y),c=eq.\"p,q\"") == [
        "a=eq.1", "b=in.(x,y)", "c=eq.\"p,q\"",
      ])
    #expect(RealtimeChangeFilter.conditions("a=eq.1") == ["a=eq.1"])
  }
}
