import Testing

@testable import SNMQuery

/// What fits at the cursor, as the shell's Tab completion asks it.
@Suite struct CompletionTests {
  static func context(_ text: String) -> CompletionContext {
    CompletionContext.at(offset: text.utf8.count, in: text)
  }

  @Test func statementStart() {
    let context = Self.context("")
    #expect(context.keywords.starts(with: ["from", "rpc", "storage", "login"]))
    #expect(context.symbols.contains("\\"))
    #expect(!context.tables)
  }

  @Test func afterFromATable() {
    let context = Self.context("from ")
    #expect(context.tables)
    #expect(context.keywords.isEmpty)
  }

  @Test func afterTheTableAnAction() {
    let context = Self.context("from user_info ")
    #expect(context.keywords == ["select", "insert", "upsert", "update", "put", "delete"])
  }

  @Test func partialWordIsThePrefix() {
    let text = "from user_info sel"
    let context = Self.context(text)
    #expect(context.prefix == "sel")
    #expect(context.replaceRange == SourceRange(start: 15, end: 18))
    #expect(context.keywords.contains("select"))
  }

  @Test func afterSelectColumnsOfTheTable() {
    let context = Self.context("from user_info select ")
    #expect(context.columnsOf == ["user_info"])
    #expect(context.symbols.contains("*"))
  }

  @Test func afterAColumnTheClauses() {
    let context = Self.context("from user_info select id ")
    for keyword in ["where", "order", "limit", "offset", "single", "maybe", "count"] {
      #expect(context.keywords.contains(keyword), "\(keyword)")
    }
  }

  @Test func afterWhereColumnsAndNot() {
    let context = Self.context("from user_info select * where ")
    #expect(context.columnsOf == ["user_info"])
    #expect(context.keywords.contains("not"))
  }

  @Test func afterAFilterColumnTheOperators() {
    let context = Self.context("from user_info select * where age ")
    #expect(context.operators)
    #expect(context.keywords.contains("gte"))
    #expect(context.keywords.contains("ilike"))
    #expect(context.keywords.contains("not"))
    #expect(context.symbols.contains(">="))
    #expect(context.symbols.contains("~*"))
  }

  @Test func afterAnOperatorAValueOrVariable() {
    let context = Self.context("from user_info select * where age >= ")
    #expect(context.variables)
  }

  @Test func aDollarWordIsAVariable() {
    let context = Self.context("from user_info select * where id eq $dog.i")
    #expect(context.variables)
    #expect(context.prefix == "$dog.i")
  }

  @Test func embedColumnsAfterADot() {
    let context = Self.context("from user_info select *, messages(*) where messages.")
    #expect(context.columnsOf == ["messages"])
  }

  @Test func embeddedSelectListColumnsOfTheRelation() {
    let context = Self.context("from dog select name, owner:user_info(")
    #expect(context.columnsOf == ["user_info"])
  }

  @Test func rpcFunctions() {
    #expect(Self.context("rpc ").functions)
    #expect(Self.context("rpc get ").functions)
  }

  @Test func settingsAndFiles() {
    #expect(
      Self.context("set ").keywords == [
        "format", "expanded", "timing", "pager", "on_error", "null", "output", "timezone",
      ])
    #expect(Self.context("set format ").keywords == ["table", "expanded", "json", "ndjson", "csv"])
    #expect(Self.context("run ").files)
    #expect(Self.context("\\i ").files)
  }

  @Test func continuationLinesKeepTheStatement() {
    let context = Self.context("from user_info select *\\\n  wh")
    #expect(context.prefix == "wh")
    #expect(context.keywords.contains("where"))
  }

  @Test func newStatementAfterSemicolon() {
    let context = Self.context("from a select *; ")
    #expect(context.keywords.contains("from"))
  }

  @Test func cursorInTheMiddleLooksOnlyBefore() {
    let text = "from user_info select * where age >= 3"
    let offset = "from ".utf8.count
    let context = CompletionContext.at(offset: offset, in: text)
    #expect(context.tables)
    #expect(context.prefix == "")
  }
}
