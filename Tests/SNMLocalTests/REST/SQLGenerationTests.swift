import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// SQL text for parsed requests, without a database: every value is a parameter, every name is
/// quoted, and embeds become LATERAL joins.
@Suite struct SQLGenerationTests {
  static let users = TableInfo(
    name: QualifiedName(schema: "public", name: "users"), kind: .table,
    columns: [
      ColumnInfo(name: "id", type: "uuid", isNullable: false),
      ColumnInfo(name: "name", type: "text"),
      ColumnInfo(name: "data", type: "jsonb"),
      ColumnInfo(name: "body", type: "tsvector"),
    ], primaryKey: ["id"], uniqueKeys: [["id"]])
  static let dogs = TableInfo(
    name: QualifiedName(schema: "public", name: "dogs"), kind: .table,
    columns: [
      ColumnInfo(name: "id", type: "bigint", isNullable: false),
      ColumnInfo(name: "owner", type: "uuid"),
      ColumnInfo(name: "name", type: "text"),
    ], primaryKey: ["id"], uniqueKeys: [["id"]])

  static var cache: SchemaCache {
    let tables = [users.name: users, dogs.name: dogs]
    let keys = [
      SchemaCache.ForeignKey(
        name: "dogs_owner_fkey", table: dogs.name, foreignTable: users.name,
        columns: [("owner", "id")])
    ]
    return SchemaCache(
      schemas: ["public"], tables: [users, dogs],
      relationships: SchemaCache.relationships(foreignKeys: keys, tables: tables),
      castTypes: ["text": "\"pg_catalog\".\"text\""])
  }

  func readSQL(_ query: String, table: TableInfo = Self.users) throws -> PGStatement {
    let parameters = try QueryParameters.parse(query)
    var planner = ReadPlanner(cache: Self.cache)
    var plan = try planner.plan(
      parameters, table: table, name: table.name.name, source: .relation(table.name))
    plan.range = parameters.ranges[[]]
    var sql = SQLWriter()
    try sql.readStatement(
      plan, cache: Self.cache, count: .exact, countLimit: nil, shape: .array(stripNulls: false))
    return sql.statement
  }

  @Test func valuesAreParametersAndNamesAreQuoted() throws {
    let statement = try readSQL(
      "select=name,n:data->>k::text&name=eq.O'Brien%3BDROP TABLE users--&data->>x=in.(a,%22b,c%22)"
        + "&or=(name.like.*x*,body.fts(english).cat)&order=name.desc.nullslast&limit=5&offset=2")
    #expect(
      statement.sql
        == "WITH \"pgrst_source\" AS (SELECT \"public\".\"users\".\"name\", "
        + "CAST(\"public\".\"users\".\"data\"->>$1 AS \"pg_catalog\".\"text\") AS \"n\" "
        + "FROM \"public\".\"users\" WHERE (\"public\".\"users\".\"name\" = $2) "
        + "AND (\"public\".\"users\".\"data\"->>$3 = ANY($4)) "
        + "AND ((\"public\".\"users\".\"name\" LIKE $5) OR "
        + "(\"public\".\"users\".\"body\" @@ to_tsquery($6, $7))) "
        + "ORDER BY \"public\".\"users\".\"name\" DESC NULLS LAST LIMIT 5 OFFSET 2) "
        + "SELECT (SELECT pg_catalog.count(*) FROM (SELECT 1 FROM \"public\".\"users\" "
        + "WHERE (\"public\".\"users\".\"name\" = $8) AND (\"public\".\"users\".\"data\"->>$9 = ANY($10)) "
        + "AND ((\"public\".\"users\".\"name\" LIKE $11) OR "
        + "(\"public\".\"users\".\"body\" @@ to_tsquery($12, $13)))) AS \"pgrst_count\") AS total, "
        + "pg_catalog.count(*) AS page_total, coalesce(json_agg(\"_postgrest_t\"), '[]')::text AS body, "
        + "NULL::bigint AS inserted"
        + ", pg_catalog.current_setting('response.headers', true) AS response_headers"
        + ", pg_catalog.current_setting('response.status', true) AS response_status"
        + " FROM \"pgrst_source\" AS \"_postgrest_t\"")
    #expect(
      Array(statement.parameters.prefix(7))
        == ["k", "O'Brien;DROP TABLE users--", "x", #"{"a","b,c"}"#, "%x%", "english", "cat"])
  }

  @Test func hostileNamesStayQuoted() throws {
    let statement = try readSQL(
      #"select=%22a%5C%22%3Bdrop%22&%22x%5C%22y%22=eq.1&order=%22z%5C%22%22"#)
    #expect(statement.sql.contains(#""public"."users"."a"";drop""#))
    #expect(statement.sql.contains(#""public"."users"."x""y" = $1"#))
    #expect(statement.sql.contains(#"ORDER BY "public"."users"."z""""#))
  }

  /// A text[] parameter's literal (REST's `in`/`any` filters, Storage's bulk names, snm gen's
  /// schemas): every element quoted, each `"` and `\` escaped by code point, a combining mark
  /// after one included (Foundation's `replacingOccurrences` passed over `"` + U+0301 there).
  @Test func arrayLiteralsEscapeEachQuoteAndBackslash() {
    #expect(SQLText.arrayLiteral([]) == "{}")
    #expect(SQLText.arrayLiteral(["a", "", "b c"]) == #"{"a","","b c"}"#)
    #expect(SQLText.arrayLiteral(["a\"b", "c\\"]) == #"{"a\"b","c\\"}"#)
    #expect(
      SQLText.arrayLiteral(["x\"\u{301}y", "\\\u{301}"]) == "{\"x\\\"\u{301}y\",\"\\\\\u{301}\"}")
  }

  /// Identifiers written in one buffer are the same as quoting each part and joining them:
  /// quotes doubled, empty names kept as `""`, non-ASCII bytes as they are.
  @Test func identifiersAreQuotedWhole() {
    let names = [
      "", "a", "dog_profile", "a\"b", "\"", "두부 🐕", "x.y", String(repeating: "n", count: 70),
    ]
    func quoted(_ name: String) -> String {
      "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    for first in names {
      #expect(SQLText.identifier(first) == quoted(first))
      for second in names {
        #expect(SQLText.qualified(first, second) == quoted(first) + "." + quoted(second))
        #expect(QualifiedName(schema: first, name: second).sql == SQLText.qualified(first, second))
      }
    }
  }

  @Test func embedsBecomeLateralJoins() throws {
    let toOne = try readSQL(
      "select=name,owner:users!inner(name)&owner.name=eq.Kim", table: Self.dogs)
    #expect(
      toOne.sql.contains(
        "row_to_json(\"dogs_owner_1\".*) AS \"owner\" FROM \"public\".\"dogs\" INNER JOIN LATERAL "
          + "(SELECT \"users_1\".\"name\" FROM \"public\".\"users\" AS \"users_1\" "
          + "WHERE \"users_1\".\"id\" = \"public\".\"dogs\".\"owner\" AND (\"users_1\".\"name\" = $1)) "
          + "AS \"dogs_owner_1\" ON TRUE"))
    #expect(toOne.sql.contains("WHERE EXISTS (SELECT 1 FROM \"public\".\"users\" AS \"users_1\""))
    let toMany = try readSQL("select=name,dogs(name)&dogs=not.is.null")
    #expect(
      toMany.sql.contains(
        "COALESCE(\"users_dogs_1\".\"users_dogs_1\", '[]') AS \"dogs\" FROM \"public\".\"users\" "
          + "LEFT JOIN LATERAL (SELECT json_agg(\"users_dogs_1\") AS \"users_dogs_1\" FROM "
          + "(SELECT \"dogs_1\".\"name\" FROM \"public\".\"dogs\" AS \"dogs_1\" WHERE "
          + "\"dogs_1\".\"owner\" = \"public\".\"users\".\"id\") AS \"users_dogs_1\") AS "
          + "\"users_dogs_1\" ON TRUE WHERE \"users_dogs_1\" IS DISTINCT FROM NULL"))
  }

  @Test func relationshipErrors() throws {
    #expect(throws: RESTError.self) { try readSQL("select=cats(*)") }
    do {
      _ = try readSQL("select=dog(*)")
      Issue.record("embedded an unknown relation")
    } catch let error as RESTError {
      #expect(error.code == "PGRST200")
      #expect(error.hintText == "Perhaps you meant 'dogs' instead of 'dog'.")
    }
  }

  /// A path on a column that is not json/jsonb goes through `to_jsonb`, as PostgREST's cfToJson.
  @Test func jsonPathsOnOtherTypesUseToJsonb() throws {
    let statement = try readSQL("select=n:name->0&data->>a=eq.1&order=id->>x", table: Self.users)
    #expect(statement.sql.contains("to_jsonb(\"public\".\"users\".\"name\")->$1::integer AS \"n\""))
    #expect(statement.sql.contains("(\"public\".\"users\".\"data\"->>$2 = $3)"))
    #expect(statement.sql.contains("ORDER BY to_jsonb(\"public\".\"users\".\"id\")->>$4"))
  }

  /// Aggregates need `pgrst.db_aggregates_enabled`; then the other items group the rows, by
  /// position.
  @Test func aggregatesGroupByTheOtherItems() throws {
    #expect(throws: RESTError.self) { try readSQL("select=name,count()") }
    #expect(
      try aggregateSQL("select=name,total:id.count()::text,count()", table: Self.users)
        == "SELECT \"public\".\"users\".\"name\", CAST(COUNT(\"public\".\"users\".\"id\") "
        + "AS \"pg_catalog\".\"text\") AS \"total\", COUNT(*) AS \"count\" "
        + "FROM \"public\".\"users\" GROUP BY 1")
  }

  /// An aggregate in a to-one spread is the parent's: the spread selects the column (and its
  /// row for `count()`), the parent applies the function and groups by the spread's other
  /// columns; in a to-many spread it is PGRST127.
  @Test func spreadAggregatesAreTheParents() throws {
    #expect(
      try aggregateSQL("select=name,...users(n:count(),id.max()::text)", table: Self.dogs)
        == "SELECT \"public\".\"dogs\".\"name\", COUNT(\"dogs_users_1\".\"n\") AS \"n\", "
        + "CAST(MAX(\"dogs_users_1\".\"max\") AS \"pg_catalog\".\"text\") AS \"max\" "
        + "FROM \"public\".\"dogs\" LEFT JOIN LATERAL (SELECT \"users_1\" AS \"n\", "
        + "\"users_1\".\"id\" AS \"max\" FROM \"public\".\"users\" AS \"users_1\" "
        + "WHERE \"users_1\".\"id\" = \"public\".\"dogs\".\"owner\") AS \"dogs_users_1\" ON TRUE "
        + "GROUP BY 1")
    #expect(
      throws: RESTError.notImplemented(
        "Aggregates are not implemented for one-to-many or many-to-many spreads.")
    ) { try aggregateSQL("select=name,...dogs(id.sum())", table: Self.users) }
  }

  /// The level's SELECT for `query` on `table`, with aggregates enabled.
  func aggregateSQL(_ query: String, table: TableInfo) throws -> String {
    var cache = Self.cache
    cache.aggregatesEnabled = true
    var planner = ReadPlanner(cache: cache)
    let plan = try planner.plan(
      try QueryParameters.parse(query), table: table, name: table.name.name,
      source: .relation(table.name))
    var sql = SQLWriter()
    try sql.select(plan, cache: cache)
    return sql.statement.sql
  }

  /// Domain representations: `domain AS json` formats a whole column (also under `*`, listed),
  /// `text AS domain` parses a comparison's or a list's value; a table without them is unchanged.
  @Test func domainRepresentationsFormatAndParse() throws {
    var tables = [
      Self.users.name: Self.users,
      QualifiedName(schema: "public", name: "paints"): TableInfo(
        name: QualifiedName(schema: "public", name: "paints"), kind: .table,
        columns: [
          ColumnInfo(name: "id", type: "bigint"), ColumnInfo(name: "tint", type: "public.color"),
        ]),
    ]
    let color = { (name: String) in QualifiedName(schema: "public", name: name) }
    SchemaCache.applyRepresentations(
      [
        SchemaCache.RepresentationKey(source: "public.color", target: "json"): color("json"),
        SchemaCache.RepresentationKey(source: "text", target: "public.color"): color("color"),
      ], to: &tables)
    let paints = try #require(tables[QualifiedName(schema: "public", name: "paints")])
    #expect(paints.hasOutputRepresentations)
    #expect(tables[Self.users.name]?.hasRepresentations == false)
    var planner = ReadPlanner(cache: Self.cache)
    let plan = try planner.plan(
      try QueryParameters.parse("select=*,t:tint,tint&tint=in.(a,b)&or=(tint.eq.c,tint.like.d)"),
      table: paints, name: "paints", source: .relation(paints.name))
    var sql = SQLWriter()
    try sql.select(plan, cache: Self.cache)
    let column = "\"public\".\"paints\".\"tint\""
    #expect(
      sql.statement.sql
        == "SELECT \"public\".\"paints\".\"id\", \"public\".\"json\"(\(column)) AS \"tint\", "
        + "\"public\".\"json\"(\(column)) AS \"t\", \"public\".\"json\"(\(column)) AS \"tint\" "
        + "FROM \"public\".\"paints\" "
        + "WHERE (\(column) = ANY(SELECT \"public\".\"color\"(unnest($1::text[])))) "
        + "AND ((\(column) = \"public\".\"color\"($2::text)) OR (\(column) LIKE $3))")
    let plain = try readSQL("select=*&name=eq.x")
    #expect(plain.sql.hasPrefix("WITH \"pgrst_source\" AS (SELECT \"public\".\"users\".* "))
    #expect(plain.sql.contains("(\"public\".\"users\".\"name\" = $1)"))
  }
}
