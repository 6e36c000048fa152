import Testing

@testable import SNMQuery

/// A select list is one array (an embed followed by its own items); these read it back as the
/// nested lists it was written as, and compare lists wherever they sit in their arrays.
@Suite struct SelectListTests {
  func selectList(_ text: String) -> SelectList? {
    guard case .query(let query) = statement(text)?.kind, case .select(let list, _) = query.action
    else { return nil }
    return list
  }

  func names(_ list: SelectList) -> [String] {
    list.indices.map { node in
      switch list[node] {
      case .star: "*"
      case .field(let field): field.column.column.text
      case .embed(let embed):
        embed.relation.text + "(" + names(list.items(of: node)).joined(separator: " ") + ")"
      }
    }
  }

  @Test func embedsHoldTheirItemsAndTheListGoesOnAfterThem() throws {
    let list = try #require(selectList("from t select a, r(b, s(c, d), e), f, u(), *"))
    #expect(list.count == 5)
    #expect(names(list) == ["a", "r(b s(c d) e)", "f", "u()", "*"])
    #expect(list.nodes.count == 10)
    // An embed's items are a list of their own: the same items as a list written alone.
    let embedded = list.items(of: 1)
    #expect(embedded.startIndex == 2 && embedded.count == 3)
    #expect(list.items(of: list.index(list.startIndex, offsetBy: 3)).isEmpty)
  }

  @Test func equalityIsOfTheItemsNotOfWhereTheyAreStored() throws {
    // `x(a, b)` and `y(a, b)` at the same offsets: the embeds differ, their items do not, though
    // stored at different places in different arrays.
    let one = try #require(selectList("from t select x(a, b)"))
    let other = try #require(selectList("from t select k, yy(a, b)"))
    #expect(one != other)
    let oneItems = one.items(of: one.startIndex)
    let otherItems = other.items(of: other.index(after: other.startIndex))
    #expect(names(oneItems) == ["a", "b"])
    #expect(oneItems.startIndex != otherItems.startIndex)
    // Equal but for the ranges: same source offsets are needed.
    #expect(oneItems != otherItems)
    let same = try #require(selectList("from t select x(a, b)"))
    #expect(same.items(of: same.startIndex) == oneItems)
    // The same nodes, nested differently: not equal.
    let flat = try #require(selectList("from t select r(a), b"))
    let nested = try #require(selectList("from t select r(a, b)"))
    #expect(flat.nodes.count == nested.nodes.count)
    #expect(flat != nested)
  }

  @Test func returningListsAreSelectLists() throws {
    let parsed = try #require(statement(#"from t insert {"a": 1} returning id, r(x)"#))
    guard case .query(let query) = parsed.kind else {
      Issue.record("expected a query")
      return
    }
    let returning = try #require(query.modifiers.rare?.returning)
    #expect(returning.count == 2)
    #expect(parsed.canonicalText == #"from t insert {"a": 1} returning id, r(x)"#)
  }
}

/// `Array.withBorrowedElement(at:)` lends an element of shared storage `inout` so that it is not
/// copied; its contract (never written) is checked in debug builds.
@Suite struct BorrowedElementTests {
  @Test func aReaderGetsTheElementInPlace() {
    let names = ["a", "bb", "ccc"]
    #expect(names.withBorrowedElement(at: 1) { $0.count } == 2)
    let predicates = condition("from t select * where a eq 1 and b eq 2")
    #expect(predicates?.withPredicate(at: 1) { $0.column.column.text } == "b")
  }

  @Test func checkingLeavesTheTreeAndListAsTheyWere() throws {
    var script = Parser.parse("from t select a, r(b) where a eq 1 and not (b eq 2 or c is null)")
    guard case .query(let query) = script.statements.first?.kind,
      case .condition(let tree) = query.filter, case .select(let list, _) = query.action
    else {
      Issue.record("expected a query with a where tree")
      return
    }
    // Copies of every element, made before the checker lends them.
    let predicates = tree.predicates.map(\.predicate)
    let items = list.nodes.map(\.item)
    Checker.check(&script, variables: [])
    #expect(tree.predicates.map(\.predicate) == predicates)
    #expect(list.nodes.map(\.item) == items)
  }

  @Test func checkingLendsAValuesElementsAndMembersAndLeavesThemAsTheyWere() throws {
    var script = Parser.parse(#"from t insert {"a": $one, "b": [1, {"c": $two}], "d": [$three]}"#)
    guard case .query(let query) = script.statements.first?.kind,
      case .insert(let body, _) = query.action
    else {
      Issue.record("expected an insert")
      return
    }
    let copy = body
    Checker.check(&script, variables: ["three"])
    #expect(body == copy)
    // Every member and element is visited: the undefined variables nested in them are found.
    #expect(script.diagnostics.map(\.message.id) == ["undefined-variable", "undefined-variable"])
    #expect(script.diagnostics.map(\.range.start) == [20, 41])
  }

  #if DEBUG
    @Test func aWriteThroughTheLendingStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        let names = ["a", "bb", "ccc"]
        names.withBorrowedElement(at: 1) { $0 = "written" }
      }
    }
  #endif
}
