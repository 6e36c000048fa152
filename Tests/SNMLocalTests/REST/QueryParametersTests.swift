import Testing

@testable import SNMLocal

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
