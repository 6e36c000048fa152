import Testing

@testable import SNMLocal
@testable import SNMLocalREST

@Suite struct QueryParametersTests {
  @Test func classifiesParameters() throws {
    let query = try QueryParameters.parse(
      "select=*,messages(*)&messages.or=(public.eq.true,to.eq.1)&id=eq.3&not.or=(a.eq.1)"
        + "&messages.order=id.desc&limit=10&offset=20&messages.limit=2&columns=a,%22b%20c%22"
        + "&on_conflict=id&lat=37.5&select=ignored&data->>blood=eq.A")
    #expect(query.hasSelect)
    #expect(query.select.count == 2)
    #expect(query.filters.map(\.path) == [[], []])
    #expect(query.filters.map(\.filter.field.name) == ["id", "data"])
    #expect(query.logic.map(\.path) == [["messages"], []])
    if case .group(let negated, .or, _) = query.logic[1].tree {
      #expect(negated)
    } else {
      Issue.record("expected a negated or")
    }
    #expect(query.order.map(\.path) == [["messages"]])
    #expect(query.ranges[[]] == QueryParameters.Range(offset: 20, limit: 10))
    #expect(query.ranges[["messages"]] == QueryParameters.Range(offset: 0, limit: 2))
    #expect(query.columns == ["a", "b c"])
    #expect(query.onConflict == ["id"])
    #expect(query.arguments.map(\.name) == ["lat"])
  }

  @Test func embeddedFiltersAndNoOperatorArguments() throws {
    let query = try QueryParameters.parse("actors.first_name=eq.Jehanne&numbers=%7B1,2,3%7D&q=fts")
    #expect(query.filters.map(\.path) == [["actors"]])
    #expect(query.arguments.map(\.value) == ["{1,2,3}", "fts"])
  }

  @Test func badLimitsAndFilters() {
    #expect(throws: RESTError.self) { try QueryParameters.parse("limit=abc") }
    #expect(throws: RESTError.self) { try QueryParameters.parse("a.b=noop.0") }
    do {
      _ = try QueryParameters.parse("limit=-1")
      Issue.record("parsed")
    } catch {
      #expect(error.status == 416)
      #expect(error.code == "PGRST103")
    }
  }
}

@Suite struct RESTResourceTests {
  @Test func paths() throws {
    #expect(try RESTResource.parse(path: "/rest/v1") == .root)
    #expect(try RESTResource.parse(path: "/rest/v1/") == .root)
    #expect(try RESTResource.parse(path: "/rest/v1/user_info") == .relation("user_info"))
    #expect(try RESTResource.parse(path: "/rest/v1/user_info/") == .relation("user_info"))
    #expect(try RESTResource.parse(path: "/rest/v1/Order%20Items") == .relation("Order Items"))
    #expect(try RESTResource.parse(path: "/rest/v1/rpc/nearby_dogs") == .routine("nearby_dogs"))
    #expect(try RESTResource.parse(path: "/rest/v1/rpc") == .relation("rpc"))
    for bad in ["/rest/v1/a/b", "/rest/v1/rpc/a/b", "/rest/v1//x", "/rest/v1x"] {
      #expect(throws: RESTError.self, "\(bad)") { try RESTResource.parse(path: bad) }
    }
  }
}

@Suite struct RangeRulesTests {
  @Test func intersectionsAndCaps() throws {
    let both = try RangeRules.effective(
      header: "0-9", query: .init(offset: 5, limit: 10), maxRows: 1000)
    #expect(both == .init(offset: 5, limit: 5))
    #expect(
      try RangeRules.effective(header: "10-", query: nil, maxRows: 1000)
        == .init(offset: 10, limit: 1000))
    #expect(try RangeRules.effective(header: "junk", query: nil, maxRows: nil) == nil)
    #expect(
      try RangeRules.effective(header: nil, query: .init(offset: 0, limit: 0), maxRows: 1000)
        == .init(offset: 0, limit: 0))
    let huge = try RangeRules.effective(
      header: "9007199254740991-", query: .init(offset: 9_007_199_254_740_991, limit: nil),
      maxRows: 1000)
    #expect(huge?.offset == 9_007_199_254_740_991)
    #expect(
      try RangeRules.effective(header: "99999999999999999999-", query: nil, maxRows: nil) == nil)
    #expect(throws: RESTError.self) {
      try RangeRules.effective(header: "5-2", query: nil, maxRows: nil)
    }
    #expect(throws: RESTError.self) { try QueryParameters.parse("offset=99999999999999999") }
  }

  /// PostgREST's getRanges: inverted headers, empty intersections, negative offsets, limit=0.
  @Test func intersectionsAndRefusals() throws {
    func refusal(_ header: String?, _ query: QueryParameters.Range?) -> String? {
      do {
        _ = try RangeRules.effective(header: header, query: query, maxRows: nil)
        return nil
      } catch {
        #expect(error.status == 416 && error.code == "PGRST103")
        return error.detailsText
      }
    }
    #expect(refusal("1-0", nil)?.hasPrefix("The lower boundary") == true)
    #expect(refusal("0-1", .init(offset: 5, limit: nil))?.hasPrefix("Limit should be") == true)
    #expect(
      try RangeRules.effective(header: nil, query: .init(offset: -4, limit: nil), maxRows: nil)
        == .init(offset: 0, limit: nil))
    #expect(
      try RangeRules.effective(header: "3-5", query: .init(offset: 0, limit: 0), maxRows: 10)
        == .init(offset: 0, limit: 0))
    #expect(
      try RangeRules.effective(header: "0-9", query: .init(offset: 3, limit: nil), maxRows: nil)
        == .init(offset: 3, limit: 7))
    #expect(try QueryParameters.parse("offset=-4").ranges[[]]?.offset == -4)
  }

  @Test func contentRangeAndStatus() throws {
    #expect(RangeRules.contentRange(offset: 0, pageTotal: 3, total: nil) == "0-2/*")
    #expect(RangeRules.contentRange(offset: 0, pageTotal: 0, total: nil) == "*/*")
    #expect(RangeRules.contentRange(offset: 0, pageTotal: 0, total: 0) == "*/0")
    #expect(RangeRules.contentRange(offset: 5, pageTotal: 0, total: 5) == "*/5")
    #expect(RangeRules.contentRange(offset: 1, pageTotal: 2, total: 4) == "1-2/4")
    #expect(try RangeRules.status(offset: 0, pageTotal: 4, total: 4) == 200)
    #expect(try RangeRules.status(offset: 0, pageTotal: 2, total: 4) == 206)
    #expect(try RangeRules.status(offset: 0, pageTotal: 2, total: nil) == 200)
    #expect(throws: RESTError.self) { try RangeRules.status(offset: 9, pageTotal: 0, total: 4) }
  }
}
