import Foundation
import SNMNetwork
import SNMWire
import Testing

@testable import SNMSupabase

/// Exact wire forms for the characters PostgREST treats specially, quoting, and every operator
/// and modifier the spec's table does not show.
@Suite struct EncodingTests {
  static let json = ["Content-Type", "application/json"]
  static let t = "/rest/v1/t"
  static let u = WireCase.base + "/rest/v1/t?"

  static let encodings: [WireCase] = [
    .init(
      "plus, semicolon and ampersand", .get, t, query: [["name", "eq.a+b;c&d=e"]],
      url: u + "name=eq.a%2Bb%3Bc%26d%3De"
    ) {
      $0.fetchData().setTable("t").setQuery(.equal("name", "a+b;c&d=e"))
    },
    .init(
      "comma, parens and quotes stay unquoted at the top level", .get, t,
      query: [["name", #"eq.Kim, "Lee" (x)"#]], url: u + "name=eq.Kim%2C%20%22Lee%22%20%28x%29"
    ) {
      $0.fetchData().setTable("t").setQuery(.equal("name", #"Kim, "Lee" (x)"#))
    },
    .init(
      "Korean text and an emoji", .get, t, query: [["name", "eq.김치 🐶"]],
      url: u + "name=eq.%EA%B9%80%EC%B9%98%20%F0%9F%90%B6"
    ) {
      $0.fetchData().setTable("t").setQuery(.equal("name", "김치 🐶"))
    },
    .init(
      "in list quoting", .get, t,
      query: [["name", #"in.("Kim, Lee","(x)","say \"hi\""," pad ",plain,"back\\slash","")"#]],
      url: u
        + "name=in.%28%22Kim%2C%20Lee%22%2C%22%28x%29%22%2C%22say%20%5C%22hi%5C%22%22%2C%22%20pad%20%22"
        + "%2Cplain%2C%22back%5C%5Cslash%22%2C%22%22%29"
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .in("name", ["Kim, Lee", "(x)", #"say "hi""#, " pad ", "plain", #"back\slash"#, ""]))
    },
    .init(
      "or operands quoted, arrays bare", .get, t,
      query: [
        ["or", #"(name.eq."a,b",name.eq."(c)",name.eq.+1;2,tags.cs.{a,b},name.not.eq."x)")"#]
      ],
      url: u
        + "or=%28name.eq.%22a%2Cb%22%2Cname.eq.%22%28c%29%22%2Cname.eq.%2B1%3B2%2Ctags.cs.%7Ba%2Cb%7D"
        + "%2Cname.not.eq.%22x%29%22%29"
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .or([
            .equal("name", "a,b"), .equal("name", "(c)"), .equal("name", "+1;2"),
            .contains("tags", ["a", "b"]), .not(.equal("name", "x)")),
          ]))
    },
    .init(
      "JSON object inside or is quoted", .get, t,
      query: [["or", #"(address.cs."{\"zip\":1}",id.eq.1)"#]]
    ) {
      $0.fetchData().setTable("t").setQuery(
        .or([.contains("address", ["zip": 1] as JSONValue), .equal("id", 1)]))
    },
    .init(
      "names outside A-Z a-z 0-9 _ $ are quoted", .get, "/rest/v1/Order%20Items",
      query: [
        ["select", #""first name",id$,"e-mail","a\"b""#], [#""information.cpe""#, "like.*MS*"],
        [#""Unit Price""#, "lt.200"],
      ],
      url: WireCase.base
        + "/rest/v1/Order%20Items?select=%22first%20name%22%2Cid%24%2C%22e-mail%22%2C%22a%5C%22b%22"
        + "&%22information.cpe%22=like.%2AMS%2A&%22Unit%20Price%22=lt.200"
    ) {
      $0.fetchData().setTable("Order Items")
        .setQuery(
          .select(
            .column("first name"), "id$", .column("e-mail"),
            .column(SupabaseColumn(#"a"b"#, embedPath: []))),
          .like(#""information.cpe""#, "*MS*"), .lessThan("Unit Price", 200))
    },
    .init(
      "array literal quoting: NULL, nil, nested, edge spaces", .get, t,
      query: [["tags", #"cs.{"NULL",NULL,{1,2},{3,4}," a","b}"}"#]]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .contains(
            "tags",
            [
              SupabaseQueryValue.string("NULL"), .null, .array([.int(1), .int(2)]),
              .array([.int(3), .int(4)]),
              .string(" a"), .string("b}"),
            ]))
    },
    .init(
      "UUID lowercase, Date ISO 8601, Double, Bool", .get, t,
      query: [
        ["id", "eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"], ["at", "lt.2026-11-29T10:00:00.250Z"],
        ["score", "gte.37.5"], ["ok", "eq.true"], ["old", "lt.1969-12-31T23:59:59.000Z"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .equal("id", UUID(uuidString: "0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B") ?? UUID()),
          .lessThan("at", Date(timeIntervalSince1970: 1_795_946_400.25)),
          .greaterThanOrEqual("score", 37.5),
          .equal("ok", true), .lessThan("old", Date(timeIntervalSince1970: -1)))
    },
    .init(
      "remaining comparison operators", .get, t,
      query: [
        ["a", "neq.1"], ["b", "lte.2"], ["c", "match.^K"], ["d", "imatch.^k"],
        ["e", "isdistinct.3"],
        ["f", "cd.{1,2}"], ["g", "ov.[2017-01-01,2017-06-30]"], ["h", "is.not_null"],
        ["i", "is.true"],
        ["j", "is.unknown"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .notEqual("a", 1), .lessThanOrEqual("b", 2), .match("c", "^K"), .imatch("d", "^k"),
          .isDistinct("e", 3), .containedBy("f", [1, 2]), .overlaps("g", "[2017-01-01,2017-06-30]"),
          .is("h", .notNull), .is("i", .true), .is("j", .unknown))
    },
    .init(
      "range operators", .get, t,
      query: [
        ["r", "sl.(1,10)"], ["r", "sr.[1,10]"], ["r", "nxl.[1,10)"], ["r", "nxr.(1,10]"],
        ["r", "adj.[1,2)"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .strictlyLeft("r", "(1,10)"), .strictlyRight("r", "[1,10]"),
          .notExtendingLeft("r", "[1,10)"),
          .notExtendingRight("r", "(1,10]"), .adjacent("r", "[1,2)"))
    },
    .init(
      "full-text search flavours", .get, t,
      query: [
        ["b", "fts.cat"], ["b", "plfts(french).chat noir"], ["b", "phfts.fat cat"],
        ["b", "wfts(english).\"fat\" -cat"],
        ["b", "not.phfts(english).x"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .textSearch("b", "cat"), .textSearch("b", "chat noir", config: "french", type: .plain),
          .textSearch("b", "fat cat", type: .phrase),
          .textSearch("b", "\"fat\" -cat", config: "english", type: .websearch),
          .not(.textSearch("b", "x", config: "english", type: .phrase)))
    },
    .init(
      "quantified operators", .get, t,
      query: [
        ["n", "like(all).{O*,*n}"], ["n", "ilike(any).{a%,\"b,c\"}"], ["n", "ilike(all).{x}"],
        ["id", "eq(any).{1,2}"], ["n", "not.like(any).{a*}"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .likeAll("n", ["O*", "*n"]), .ilikeAny("n", ["a%", "b,c"]), .ilikeAll("n", ["x"]),
          .quantified("id", .eq, .any, [1, 2]), .not(.likeAny("n", ["a*"])))
    },
    .init(
      "raw operator and custom pair", .get, t,
      query: [["col", "eq.raw,\"text"], ["x-custom", "a b"]],
      url: u + "col=eq.raw%2C%22text&x-custom=a%20b"
    ) {
      $0.fetchData().setTable("t").setQuery(
        .filter("col", operator: "eq", value: "raw,\"text"), .custom("x-custom", "a b"))
    },
    .init(
      "nested groups with not and embedded limit", .get, t,
      query: [
        ["and", "(not.or(a.eq.1,b.eq.2),id.gt.0)"], ["select", "*,cities(*)"],
        ["cities.limit", "2"],
        ["cities.offset", "1"], ["cities.order", "name.asc.nullsfirst"],
      ]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .and([.not(.or([.equal("a", 1), .equal("b", 2)])), .greaterThan("id", 0)]),
          .select(.all, .embed("cities", .all)), .limit(2, referencedTable: "cities"),
          .offset(1, referencedTable: "cities"),
          .order("cities.name", ascending: true, nulls: .first))
    },
    .init(
      "or with referencedTable", .get, t, query: [["messages.or", "(public.eq.true,to.eq.1)"]]
    ) {
      $0.fetchData().setTable("t").setQuery(
        .or([.equal("public", true), .equal("to", 1)], referencedTable: "messages"))
    },
    .init(
      "select text keeps quoted spaces, later select replaces in place", .get, t,
      query: [["select", #"id,"first name",owner:user_info!owner_fk(name)"#], ["id", "eq.1"]]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .select("*"), .equal("id", 1),
          .select(#" id, "first name", owner:user_info!owner_fk( name ) "#))
    },
    .init(
      "embed hint, spread and raw item", .get, t,
      query: [["select", "...owner:user_info!owner_fk!inner(name),count()"]]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .select(
            .embed("user_info", as: "owner", hint: "owner_fk", join: .inner, spread: true, "name"),
            .raw("count()")))
    },
    .init(
      "aggregates, bare count, several hints", .get, t,
      query: [["select", "owner_id,avg_age:age.avg()::int,count(),dog!owner!inner(name)"]]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .select(
            "owner_id", .column("age", as: "avg_age", aggregate: "avg", cast: "int"), .count(),
            .embed(
              relation: "dog", alias: nil, hints: ["owner", "inner"], spread: false, items: ["name"]
            )))
    },
    .init(
      "a cast before and after an aggregate, in a spread", .get, t,
      query: [["select", "amount::int.sum(),...r(n:count(),x::text.max()::int)"]]
    ) {
      $0.fetchData().setTable("t")
        .setQuery(
          .select(
            .column("amount", aggregate: "sum", inputCast: "int"),
            .embed(
              "r", spread: true, .count(as: "n"),
              .column("x", aggregate: "max", inputCast: "text", cast: "int"))))
    },
    .init(
      "schema on a read", .get, t, query: [["select", "*"]],
      headers: [["Accept-Profile", "inventory"]]
    ) {
      $0.fetchData().setTable("t", schema: "inventory").setQuery(.select("*"))
    },
    .init(
      "schema parameter overrides setTable schema on a write", .post, t,
      headers: [json, ["Prefer", "return=minimal"], ["Content-Profile", "inventory"]],
      body: #"{"a":1}"#
    ) {
      $0.insertData().setTable("t", schema: "public").setBody(["a": 1]).setQuery(
        .schema("inventory"))
    },
    .init(
      "count planned on rpc, maybe single sends no Accept", .post, "/rest/v1/rpc/f",
      headers: [json, ["Prefer", "count=planned"]], body: "{}"
    ) {
      $0.rpc("f").setQuery(.count(.planned), .maybeSingle)
    },
    .init(
      "csv and count estimated", .get, t, query: [["select", "*"]],
      headers: [["Prefer", "count=estimated"], ["Accept", "text/csv"]]
    ) {
      $0.fetchData().setTable("t").setQuery(.select("*"), .count(.estimated), .csv)
    },
    .init(
      "explicit columns and on_conflict with several names", .post, t,
      query: [["on_conflict", #"a,"b c""#], ["columns", #""a","b c""#], ["select", "*"]],
      headers: [
        json, ["Prefer", "return=representation,count=exact,resolution=merge-duplicates"],
      ],
      body: #"[{"a":1,"b c":2,"x":3}]"#
    ) {
      $0.upsertData().setTable("t").setBody([["a": 1, "b c": 2, "x": 3]])
        .setQuery(
          .onConflict("a", "b c"), .columns(["a", "b c"]), .count(.exact), .returning("*"),
          .ignoreDuplicates,
          .mergeDuplicates
        )
        .setQuery(.select("*"))
        .setQuery()
    },
    .init(
      "array insert columns in first-seen order", .post, t, query: [["columns", #""b","a","c""#]],
      headers: [json, ["Prefer", "return=minimal"]], body: #"[{"b":1,"a":2},{"c":3,"a":4}]"#
    ) {
      $0.insertData().setTable("t").setBody([["b": 1, "a": 2], ["c": 3, "a": 4]])
    },
    .init(
      "rpc get arguments: strings, nulls, arrays with quoting, objects", .get, "/rest/v1/rpc/f",
      query: [
        ["s", "a b"], ["n", "null"], ["arr", #"{x,"y,z"}"#], ["o", #"{"k":[1]}"#],
        ["select", "id"],
      ],
      url: WireCase.base
        + "/rest/v1/rpc/f?s=a%20b&n=null&arr=%7Bx%2C%22y%2Cz%22%7D&o=%7B%22k%22%3A%5B1%5D%7D&select=id"
    ) {
      $0.rpc("f", get: true).setBody(["s": "a b", "n": nil, "arr": ["x", "y,z"], "o": ["k": [1]]])
        .setQuery(.select("id"))
    },
    .init(
      "delete with filter, no returning", .delete, t, query: [["id", "in.(1,2)"]],
      headers: [["Prefer", "return=minimal"]]
    ) {
      $0.deleteData().setTable("t").setQuery(.in("id", [1, 2]))
    },
  ]

  @Test(arguments: encodings)
  func encodes(_ testCase: WireCase) throws {
    try testCase.check()
  }
}
