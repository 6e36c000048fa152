import Testing

@testable import SNMQuery

struct CanonicalCase: Sendable, CustomTestStringConvertible {
  var input: String
  var canonical: String
  var testDescription: String { input.debugDescription }
  init(_ input: String, _ canonical: String) {
    self.input = input
    self.canonical = canonical
  }
}

@Suite struct ParserQueryTests {
  @Test(arguments: SpecExample.all)
  func specExampleParsesCleanly(_ example: SpecExample) {
    let result = parseAndCheck(example.statement)
    #expect(result.errors == [])
    #expect(result.statements.count == 1)
    // The canonical text parses back to itself.
    if let first = result.statements.first {
      #expect(parseAndCheck(first).statements == [first])
    }
  }

  @Test func specHasAllExamples() {
    #expect(SpecExample.all.count == 45)
  }

  static let forms: [CanonicalCase] = [
    // select lists: aliases, casts, json paths, embeds, hints, spread, aggregates
    CanonicalCase(
      "from user_info select id, nick:name, age::text, data->>blood, data->'a b'->0",
      #"from user_info select id, nick:name, age::text, data->>blood, data->"a b"->0"#),
    CanonicalCase(
      "from dog select name, owner:user_info!owner_fk!inner(id, name), ...breed(label), count()",
      "from dog select name, owner:user_info!owner_fk!inner(id, name), ...breed(label), count()"),
    CanonicalCase(
      "from orders select amount.sum(), total:amount.avg()::int",
      "from orders select amount.sum(), total:amount.avg()::int"),
    // a cast before the aggregate casts its input; aggregates in spreads
    CanonicalCase(
      "from orders select amount::int.sum(), t:amount::int.avg()::text, data->>n::int.max()",
      "from orders select amount::int.sum(), t:amount::int.avg()::text, data->>n::int.max()"),
    CanonicalCase(
      "from ps select sid, ...p(n:count()::text, ...pc(cost::int.sum()))",
      "from ps select sid, ...p(n:count()::text, ...pc(cost::int.sum()))"),
    // quoted names, schema.table
    CanonicalCase(
      #"from "Order Items" select "first name", "information.cpe""#,
      #"from "Order Items" select "first name", "information.cpe""#),
    CanonicalCase("from private.accounts select *", "from private.accounts select *"),
    // keywords in any case; names keep theirs
    CanonicalCase(
      "FROM User_Info SELECT * WHERE Age GTE 3 ORDER BY Name DESC NULLS FIRST LIMIT 1",
      "from User_Info select * where Age gte 3 order by Name desc nulls first limit 1"),
    // keywords are fine as names where a name is expected
    CanonicalCase(
      "from order select status, count, limit where status eq 'a' order by count",
      #"from order select status, count, limit where status eq "a" order by count"#),
    // both string quotes; escapes
    CanonicalCase(
      #"from t select * where a eq 'it''s' and b eq "say \"hi\"\n""#,
      #"from t select * where a eq "it's" and b eq "say \"hi\"\n""#),
    // bare atoms
    CanonicalCase(
      "from t select * where d eq 2026-11-29 and ts lt 2026-11-29T10:00:00Z and id eq 0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B",
      "from t select * where d eq 2026-11-29 and ts lt 2026-11-29T10:00:00Z and id eq 0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B"
    ),
    // variables in values and bodies, and in strings
    CanonicalCase(
      #"from dog select * where owner eq $me.id and name eq '${dog.name}!' limit $n"#,
      #"from dog select * where owner eq $me.id and name eq "${dog.name}!" limit $n"#),
    CanonicalCase(
      #"from dog insert {"owner": $me.id, "tags": [$tag, "x"], "n": $rows[0].n}"#,
      #"from dog insert {"owner": $me.id, "tags": [$tag, "x"], "n": $rows[0].n}"#),
    CanonicalCase("from dog insert $dogs", "from dog insert $dogs"),
    // nested and/or/not
    CanonicalCase(
      "from t select * where a eq 1 and b eq 2 or c eq 3 and not d eq 4",
      "from t select * where (a eq 1 and b eq 2) or (c eq 3 and not (d eq 4))"),
    CanonicalCase(
      "from t select * where not (a eq 1 and (b eq 2 or not (c eq 3 or d eq 4)))",
      "from t select * where not (a eq 1 and (b eq 2 or not (c eq 3 or d eq 4)))"),
    CanonicalCase("from t select * where ((a eq 1))", "from t select * where a eq 1"),
    // embedded filters and order
    CanonicalCase(
      "from user_info select *, messages(*) where messages.public eq true order by messages.sent desc, id",
      "from user_info select *, messages(*) where messages.public eq true order by messages.sent desc, id"
    ),
    // modifiers in any order
    CanonicalCase(
      "from t select * single offset 2 count planned order by a limit 1",
      "from t select * order by a limit 1 offset 2 single count planned"),
    CanonicalCase("from t select * maybe single", "from t select * maybe single"),
    // writes
    CanonicalCase(
      #"from t upsert [{"id": 1}] ignore duplicates on conflict id, org"#,
      #"from t upsert [{"id": 1}] on conflict id, org ignore duplicates"#),
    CanonicalCase(#"from t update {"a": 1} where all"#, #"from t update {"a": 1} where all"#),
    CanonicalCase("from t delete where all returning id", "from t delete where all returning id"),
    CanonicalCase(
      "from t delete where id eq 1 count exact returning *",
      "from t delete where id eq 1 count exact returning *"),
    // rpc
    CanonicalCase("rpc get nearby_dogs", "rpc get nearby_dogs"),
    CanonicalCase("rpc get {}", "rpc get {}"),
    CanonicalCase(
      #"rpc api.fn {"a": [1, {"b": null}]} returning id"#,
      #"rpc api.fn {"a": [1, {"b": null}]} returning id"#),
    // multi-line statements: inside brackets and after a trailing backslash
    CanonicalCase(
      "from t insert {\n  \"name\": \"Kim\",\n  \"age\": 3\n}",
      #"from t insert {"name": "Kim", "age": 3}"#),
    CanonicalCase(
      "from t select *\\\n  where a eq 1 \\\n  limit 2", "from t select * where a eq 1 limit 2"),
    CanonicalCase(
      "from t select * where id in (\n 1, # one\n 2 -- two\n)",
      "from t select * where id in (1, 2)"),
    // comments and ';' separation
    CanonicalCase(
      "# setup\nfrom a select *; from b select * -- both\n\n;;from c select *",
      "from a select *\nfrom b select *\nfrom c select *"),
  ]

  @Test(arguments: forms)
  func canonicalForm(_ testCase: CanonicalCase) {
    #expect(canonical(testCase.input) == testCase.canonical)
    #expect(canonical(testCase.canonical) == testCase.canonical)
  }
}
