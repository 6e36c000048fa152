import Foundation
import SNMNetwork
import SNMWire
import Testing

@testable import SNMSupabase

/// Every row of the table in snm-language.md §2, as `SupabaseQueryParameter` calls.
@Suite struct SpecTableTests {
  static let uuid = UUID(uuidString: "0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B") ?? UUID()
  static let uuidText = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
  static let json = ["Content-Type", "application/json"]
  static let single = ["Accept", "application/vnd.pgrst.object+json"]
  static let user = "/rest/v1/user_info"

  static let rows: [WireCase] = [
    .init(
      "from user_info select *", .get, user, query: [["select", "*"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"))
    },
    .init("from user_info select id, name", .get, user, query: [["select", "id,name"]]) {
      $0.fetchData().setTable("user_info").setQuery(.select("id", "name"))
    },
    .init(
      "from user_info select id, nick:name, age::text", .get, user,
      query: [["select", "id,nick:name,age::text"]],
      url: WireCase.base + "/rest/v1/user_info?select=id%2Cnick%3Aname%2Cage%3A%3Atext"
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(.select("id", .column("name", as: "nick"), .column("age", cast: "text")))
    },
    .init(
      "from dog select name, owner:user_info(id, name)", .get, "/rest/v1/dog",
      query: [["select", "name,owner:user_info(id,name)"]],
      url: WireCase.base + "/rest/v1/dog?select=name%2Cowner%3Auser_info%28id%2Cname%29"
    ) {
      $0.fetchData().setTable("dog").setQuery(
        .select("name", .embed("user_info", as: "owner", "id", "name")))
    },
    .init(
      "from dog select name, user_info!inner(name)", .get, "/rest/v1/dog",
      query: [["select", "name,user_info!inner(name)"]]
    ) {
      $0.fetchData().setTable("dog").setQuery(
        .select("name", .embed("user_info", join: .inner, "name")))
    },
    .init(
      "from user_info select * where id eq 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", .get, user,
      query: [["select", "*"], ["id", "eq." + uuidText]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&id=eq." + uuidText
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .equal("id", uuid))
    },
    .init(
      "from user_info select * where age >= 3 and name ilike 'ba*'", .get, user,
      query: [["select", "*"], ["age", "gte.3"], ["name", "ilike.ba*"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&age=gte.3&name=ilike.ba%2A"
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(.select("*"), .greaterThanOrEqual("age", 3), .ilike("name", "ba*"))
    },
    .init(
      "from user_info select * where age < 3 or age > 10", .get, user,
      query: [["select", "*"], ["or", "(age.lt.3,age.gt.10)"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&or=%28age.lt.3%2Cage.gt.10%29"
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(.select("*"), .or([.lessThan("age", 3), .greaterThan("age", 10)]))
    },
    .init(
      "from user_info select * where status eq 'a' and (age lt 3 or age gt 10)", .get, user,
      query: [["select", "*"], ["status", "eq.a"], ["or", "(age.lt.3,age.gt.10)"]]
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(
          .select("*"), .equal("status", "a"), .or([.lessThan("age", 3), .greaterThan("age", 10)]))
    },
    .init(
      "from user_info select * where a eq 1 or (b eq 2 and c eq 3)", .get, user,
      query: [["select", "*"], ["or", "(a.eq.1,and(b.eq.2,c.eq.3))"]]
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(.select("*"), .or([.equal("a", 1), .and([.equal("b", 2), .equal("c", 3)])]))
    },
    .init(
      "from user_info select * where not (a eq 1 or b eq 2)", .get, user,
      query: [["select", "*"], ["not.or", "(a.eq.1,b.eq.2)"]]
    ) {
      $0.fetchData().setTable("user_info").setQuery(
        .select("*"), .not(.or([.equal("a", 1), .equal("b", 2)])))
    },
    .init(
      "from user_info select * where name not eq 'x'", .get, user,
      query: [["select", "*"], ["name", "not.eq.x"]]
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .not(.equal("name", "x")))
    },
    .init(
      "from user_info select * where deleted_at is null", .get, user,
      query: [["select", "*"], ["deleted_at", "is.null"]]
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .is("deleted_at", .null))
    },
    .init(
      "from user_info select * where deleted_at is not null", .get, user,
      query: [["select", "*"], ["deleted_at", "not.is.null"]]
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .not(.is("deleted_at", .null)))
    },
    .init(
      "from user_info select * where id in (1, 2, 3)", .get, user,
      query: [["select", "*"], ["id", "in.(1,2,3)"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&id=in.%281%2C2%2C3%29"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .in("id", [1, 2, 3]))
    },
    .init(
      "from user_info select * where name not in ('a,b', 'c')", .get, user,
      query: [["select", "*"], ["name", #"not.in.("a,b",c)"#]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&name=not.in.%28%22a%2Cb%22%2Cc%29"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .not(.in("name", ["a,b", "c"])))
    },
    .init(
      "from user_info select * where tags cs ['a', 'b']", .get, user,
      query: [["select", "*"], ["tags", "cs.{a,b}"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&tags=cs.%7Ba%2Cb%7D"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .contains("tags", ["a", "b"]))
    },
    .init(
      "from user_info select * where tags cs ['a,b', 'c']", .get, user,
      query: [["select", "*"], ["tags", #"cs.{"a,b",c}"#]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&tags=cs.%7B%22a%2Cb%22%2Cc%7D"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .contains("tags", ["a,b", "c"]))
    },
    .init(
      "from user_info select * where name like any ['%a%', '%b%']", .get, user,
      query: [["select", "*"], ["name", "like(any).{%a%,%b%}"]],
      url: WireCase.base
        + "/rest/v1/user_info?select=%2A&name=like%28any%29.%7B%25a%25%2C%25b%25%7D"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .likeAny("name", ["%a%", "%b%"]))
    },
    .init(
      #"from user_info select * where address contains {"postcode": 90210}"#, .get, user,
      query: [["select", "*"], ["address", #"cs.{"postcode":90210}"#]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&address=cs.%7B%22postcode%22%3A90210%7D"
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(.select("*"), .contains("address", ["postcode": 90210] as JSONValue))
    },
    .init(
      "from doc select * where body fts(english) 'fat & cat'", .get, "/rest/v1/doc",
      query: [["select", "*"], ["body", "fts(english).fat & cat"]],
      url: WireCase.base + "/rest/v1/doc?select=%2A&body=fts%28english%29.fat%20%26%20cat"
    ) {
      $0.fetchData().setTable("doc").setQuery(
        .select("*"), .textSearch("body", "fat & cat", config: "english"))
    },
    .init(
      "from user_info select * where data->>blood eq 'A'", .get, user,
      query: [["select", "*"], ["data->>blood", "eq.A"]],
      url: WireCase.base + "/rest/v1/user_info?select=%2A&data-%3E%3Eblood=eq.A"
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .equal("data->>blood", "A"))
    },
    .init(
      "from user_info select *, messages(*) where messages.public eq true or messages.to eq 1",
      .get,
      user, query: [["select", "*,messages(*)"], ["messages.or", "(public.eq.true,to.eq.1)"]]
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(
          .select(.all, .embed("messages", .all)),
          .or([.equal("messages.public", true), .equal("messages.to", 1)]))
    },
    .init(
      "from cities select name, countries(name) order by countries.name", .get, "/rest/v1/cities",
      query: [["select", "name,countries(name)"], ["countries.order", "name"]]
    ) {
      $0.fetchData().setTable("cities")
        .setQuery(.select("name", .embed("countries", "name")), .order("countries.name"))
    },
    .init(
      "from user_info select * order by name desc nulls last, id limit 10 offset 20", .get, user,
      query: [
        ["select", "*"], ["order", "name.desc.nullslast,id"], ["limit", "10"], ["offset", "20"],
      ],
      url: WireCase.base
        + "/rest/v1/user_info?select=%2A&order=name.desc.nullslast%2Cid&limit=10&offset=20"
    ) {
      $0.fetchData().setTable("user_info")
        .setQuery(
          .select("*"), .order("name", ascending: false, nulls: .last), .order("id"), .limit(10),
          .offset(20))
    },
    .init(
      "from user_info select * count exact", .get, user, query: [["select", "*"]],
      headers: [["Prefer", "count=exact"]]
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .count(.exact))
    },
    .init(
      "from user_info select * where id eq 1 single", .get, user,
      query: [["select", "*"], ["id", "eq.1"]], headers: [single]
    ) {
      $0.fetchData().setTable("user_info").setQuery(.select("*"), .equal("id", 1), .single)
    },
    .init(
      #"from user_info insert {"name": "Kim"}"#, .post, user,
      headers: [json, ["Prefer", "return=minimal"]], body: #"{"name":"Kim"}"#,
      url: WireCase.base + "/rest/v1/user_info"
    ) {
      $0.insertData().setTable("user_info").setBody(["name": "Kim"])
    },
    .init(
      #"from user_info insert {"name": "Kim"} returning id, name"#, .post, user,
      query: [["select", "id,name"]], headers: [json, ["Prefer", "return=representation"]],
      body: #"{"name":"Kim"}"#
    ) {
      $0.insertData().setTable("user_info").setBody(["name": "Kim"]).setQuery(
        .returning("id", "name"))
    },
    .init(
      #"from user_info insert [{"a": 1}, {"b": 2}]"#, .post, user,
      query: [["columns", #""a","b""#]],
      headers: [json, ["Prefer", "return=minimal"]], body: #"[{"a":1},{"b":2}]"#,
      url: WireCase.base + "/rest/v1/user_info?columns=%22a%22%2C%22b%22"
    ) {
      $0.insertData().setTable("user_info").setBody([["a": 1], ["b": 2]])
    },
    .init(
      #"from user_info upsert {"id": 1, "name": "x"} on conflict id"#, .post, user,
      query: [["on_conflict", "id"]],
      headers: [json, ["Prefer", "return=minimal,resolution=merge-duplicates"]],
      body: #"{"id":1,"name":"x"}"#
    ) {
      $0.upsertData().setTable("user_info").setBody(["id": 1, "name": "x"]).setQuery(
        .onConflict("id"))
    },
    .init(
      #"from user_info upsert {"id": 1} ignore duplicates"#, .post, user,
      headers: [json, ["Prefer", "return=minimal,resolution=ignore-duplicates"]], body: #"{"id":1}"#
    ) {
      $0.upsertData().setTable("user_info").setBody(["id": 1]).setQuery(.ignoreDuplicates)
    },
    .init(
      #"from user_info update {"name": "Lee"} where id eq 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"#,
      .patch, user, query: [["id", "eq." + uuidText]],
      headers: [json, ["Prefer", "return=minimal"]],
      body: #"{"name":"Lee"}"#, url: WireCase.base + "/rest/v1/user_info?id=eq." + uuidText
    ) {
      $0.updateData().setTable("user_info").setBody(["name": "Lee"]).setQuery(.equal("id", uuid))
    },
    .init(
      "from user_info delete where id eq 3 returning *", .delete, user,
      query: [["id", "eq.3"], ["select", "*"]], headers: [["Prefer", "return=representation"]]
    ) {
      $0.deleteData().setTable("user_info").setQuery(.equal("id", 3), .returning())
    },
    .init(
      #"rpc nearby_dogs {"lat": 37.5, "lng": 127.0}"#, .post, "/rest/v1/rpc/nearby_dogs",
      headers: [json], body: #"{"lat":37.5,"lng":127.0}"#
    ) {
      $0.rpc("nearby_dogs").setBody(["lat": 37.5, "lng": .number(JSONNumber("127.0") ?? 0)])
    },
    .init(
      #"rpc get nearby_dogs {"lat": 37.5} limit 5"#, .get, "/rest/v1/rpc/nearby_dogs",
      query: [["lat", "37.5"], ["limit", "5"]],
      url: WireCase.base + "/rest/v1/rpc/nearby_dogs?lat=37.5&limit=5"
    ) {
      $0.rpc("nearby_dogs", get: true).setBody(["lat": 37.5]).setQuery(.limit(5))
    },
    .init(
      #"rpc get sum {"numbers": [1, 2, 3]}"#, .get, "/rest/v1/rpc/sum",
      query: [["numbers", "{1,2,3}"]],
      url: WireCase.base + "/rest/v1/rpc/sum?numbers=%7B1%2C2%2C3%7D"
    ) {
      $0.rpc("sum", get: true).setBody(["numbers": [1, 2, 3]])
    },
    .init(
      #"rpc dogs_of {"owner": "0c8e5f7a-…"} where age gt 2 order by name single"#, .post,
      "/rest/v1/rpc/dogs_of", query: [["age", "gt.2"], ["order", "name"]], headers: [json, single],
      body: #"{"owner":"0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"}"#
    ) {
      $0.rpc("dogs_of").setBody(["owner": .string(uuidText)])
        .setQuery(.greaterThan("age", 2), .order("name"), .single)
    },
    .init(
      #"from user_info update {"age": 4} where id eq 1 count exact returning id"#, .patch, user,
      query: [["id", "eq.1"], ["select", "id"]],
      headers: [json, ["Prefer", "return=representation,count=exact"]], body: #"{"age":4}"#
    ) {
      $0.updateData().setTable("user_info").setBody(["age": 4])
        .setQuery(.equal("id", 1), .count(.exact), .returning("id"))
    },
  ]

  @Test(arguments: rows)
  func specRow(_ row: WireCase) throws {
    try row.check()
  }

  /// The spec's §2 table has 39 rows; each has its case above.
  @Test func everySpecRowIsCovered() {
    #expect(Self.rows.count == 39)
    #expect(Set(Self.rows.map(\.statement)).count == 39)
  }
}
