import Testing

@testable import SNMNetwork

/// `Content-Range` as PostgREST sends it, and what is not a range of rows.
@Suite struct ContentRangeTests {
  @Test func whatPostgRESTSendsIsRead() throws {
    let page = try #require(ContentRange("0-24/3573"))
    #expect(page.first == 0 && page.last == 24 && page.total == 3573 && page.rows == 25)
    let uncounted = try #require(ContentRange("0-24/*"))
    #expect(uncounted.total == nil && uncounted.rows == 25)
    let empty = try #require(ContentRange("*/0"))
    #expect(empty.first == nil && empty.total == 0 && empty.rows == 0)
    let head = try #require(ContentRange("*/42"))
    #expect(head.total == 42 && head.rows == 42)
    #expect(ContentRange("*/*")?.total == nil)
    // count=planned: the planner's total may be below the page's end.
    #expect(ContentRange("0-9/3")?.total == 3)
    #expect(ContentRange("0-0/9223372036854775807")?.total == Int.max)
  }

  @Test(arguments: [
    "0-0/-5", "*/-5", "0-0/+5", "0-0/5x", "0-0/ 5", "0-0/", "0-0/9223372036854775808",
    "0-0/99999999999999999999", "3-1/5", "-1-0/5", "0-/5", "-0/5", "0-0", "", "/", "*",
    "bytes 0-0/5", "0-0-0/5", "0–0/5", "0-0/5/5",
  ])
  func whatIsNotARangeOfRowsIsRefused(text: String) {
    #expect(ContentRange(text) == nil, "\(text)")
  }
}
