import Testing

@testable import SNMQuery

@Test func scratch() {
  let inputs = [
    "from user_info select id, nick:name, age::text where age >= 3 and name ilike 'ba*' order by name desc nulls last, id limit 10 offset 20",
    "from dog select name, owner:user_info(id, name), user_info!inner(name)",
    "from user_info select * where a eq 1 or (b eq 2 and c eq 3)",
    "from user_info select * where not (a eq 1 or b eq 2)",
    "from user_info select * where name not in ('a,b', 'c') and tags cs ['a', 'b'] and address contains {\"postcode\": 90210}",
    "from doc select * where body fts(english) 'fat & cat' and data->>blood eq 'A'",
    "from user_info upsert {\"id\": 1, \"name\": \"x\"} on conflict id",
    "rpc get nearby_dogs {\"lat\": 37.5} limit 5",
    "from user_info selec *",
    "from user_info select * where age gte",
    "from user_info select * where a eqq 1\nfrom t select * where (a eq 1\nfrom u select *",
    "login email 'a@b.c' password $env.PW; session show; let dog = from dog_profile insert {\"name\": \"Bori\"} returning id single",
    "expect $dog.name == 'Bori'\necho 'made $dog.id'\nrun other.snm\n\\i ../x/y.snm\n\\timing\nset format json",
    "from \"Order Items\" select \"first name\" where 이름 eq 1",
  ]
  for input in inputs {
    let script = Parser.parse(input, fileName: "t.snm")
    for statement in script.statements { print("OK:", statement) }
    print(DiagnosticRenderer().render(script.diagnostics, in: script.source))
  }
}
