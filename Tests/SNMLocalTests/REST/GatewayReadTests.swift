import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// Reads through the gateway against real Postgres (see `GatewayHarness`).
extension GatewayDatabaseTests {
  @Suite final class Read {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    func names(_ target: String, headers: [(String, String)] = []) -> [String] {
      let response = harness.send("GET", target, headers: headers)
      #expect(response.status == 200 || response.status == 206, "\(target): \(response.text)")
      return response.json.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    @Test func filtersOfEveryFamily() {
      #expect(names("/users?select=name&age=gte.30&order=name") == ["Kim", "Émile 🐶"])
      #expect(names("/users?select=name&age=not.gte.30&order=name") == ["Lee"])
      #expect(names("/users?select=name&name=neq.Kim&age=lt.20") == ["Lee"])
      #expect(names("/users?select=name&name=like.*mi*") == ["Émile 🐶"])
      #expect(names("/users?select=name&name=ilike.K*") == ["Kim"])
      #expect(names("/users?select=name&name=match.^L") == ["Lee"])
      #expect(names("/users?select=name&name=imatch.^l") == ["Lee"])
      #expect(names("/users?select=name&name=like(any).{K*,L*}&order=name") == ["Kim", "Lee"])
      #expect(names("/users?select=name&name=like(all).{K*,*m}") == ["Kim"])
      #expect(names("/users?select=name&age=is.null") == ["박지성"])
      #expect(names("/users?select=name&age=not.is.null&order=name") == ["Kim", "Lee", "Émile 🐶"])
      #expect(names("/users?select=name&status=eq.null") == ["박지성"])
      #expect(
        names("/users?select=name&age=isdistinct.30&order=name") == ["Lee", "Émile 🐶", "박지성"])
      #expect(
        names(
          "/users?select=name&id=in.(00000000-0000-0000-0000-000000000001,00000000-0000-0000-0000-000000000002)&order=name"
        )
          == ["Kim", "Lee"])
      #expect(names("/users?select=name&name=in.()") == [])
      #expect(names("/users?select=name&name=not.in.(Kim,Lee)&order=name") == ["Émile 🐶", "박지성"])
      #expect(names("/users?select=name&tags=cs.%7Ba%7D&order=name") == ["Kim"])
      #expect(names("/users?select=name&tags=cs.%7B%22a,b%22%7D") == ["Émile 🐶"])
      #expect(names("/users?select=name&tags=cd.%7Ba,b%7D&order=name") == ["Kim", "Lee", "박지성"])
      #expect(
        names("/users?select=name&tags=ov.%7Bc,b%7D&order=name") == ["Kim", "Lee", "Émile 🐶"])
      #expect(names("/users?select=name&data=cs.%7B%22blood%22:%22B%22%7D") == ["Lee"])
      #expect(names("/users?select=name&data->>blood=eq.A") == ["Kim"])
      #expect(names("/users?select=name&data->nested->x->1->>y=eq.2") == ["Émile 🐶"])
      #expect(names("/users?select=name&name=eq.%EB%B0%95%EC%A7%80%EC%84%B1") == ["박지성"])
    }

    @Test func rangeOperatorsAndTextSearch() {
      let ids = { (target: String) -> [Int] in
        self.harness.send("GET", target).json.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
      }
      #expect(ids("/docs?select=id&doc_range=sl.[6,8)") == [1])
      #expect(ids("/docs?select=id&doc_range=sr.[6,8)") == [2])
      #expect(ids("/docs?select=id&doc_range=nxr.[1,9)") == [1])
      #expect(ids("/docs?select=id&doc_range=nxl.[3,4)") == [2])
      #expect(ids("/docs?select=id&doc_range=adj.[5,7)") == [1])
      #expect(ids("/docs?select=id&doc_range=ov.[4,11)&order=id") == [1, 2])
      #expect(harness.send("GET", "/docs?select=id&doc_range=cs.3").status == 400)
      #expect(ids("/docs?select=id&body=fts.cat") == [1])
      #expect(ids("/docs?select=id&body=plfts(english).fat+cats") == [1])
      #expect(ids("/docs?select=id&body=phfts.quick+fox") == [2])
      #expect(ids("/docs?select=id&body=wfts.fox+-cat") == [2])
      #expect(ids("/docs?select=id&body=not.fts.cat") == [2])
      #expect(ids("/docs?select=id&or=(body.fts.cat,title.eq.two)&order=id") == [1, 2])
    }

    @Test func logicTrees() {
      #expect(
        names("/users?select=name&or=(age.lt.18,age.gt.40)&order=name") == ["Lee", "Émile 🐶"])
      #expect(
        names("/users?select=name&or=(and(age.gte.18,status.eq.active),name.eq.Lee)&order=name")
          == ["Kim", "Lee", "Émile 🐶"])
      #expect(
        names("/users?select=name&not.or=(age.lt.18,age.is.null)&order=name") == ["Kim", "Émile 🐶"])
      #expect(
        names("/users?select=name&and=(age.gt.10,not.or(name.eq.Kim,name.eq.Lee))") == ["Émile 🐶"])
      #expect(
        names("/users?select=name&or=(name.eq.\"Émile 🐶\",name.in.(\"a,b\",Kim))&order=name") == [
          "Kim", "Émile 🐶",
        ])
      #expect(
        names("/users?select=name&or=(tags.cs.%7Bc%7D,age.eq.12)&order=name") == ["Lee", "Émile 🐶"])
    }

    @Test func selectShapes() {
      let response = harness.send(
        "GET",
        "/users?select=nick:name,age::text,blood:data->>blood,data->phones->0&id=eq.00000000-0000-0000-0000-000000000001"
      )
      #expect(response.status == 200)
      #expect(response.text == #"[{"nick":"Kim","age":"30","blood":"A","phones":"1"}]"#)
      let quoted = harness.send("GET", "/users?select=%22name%22,x:age&name=eq.Lee")
      #expect(quoted.text == #"[{"name":"Lee","x":12}]"#)
    }

    @Test func embeddingEveryCardinality() {
      let manyToOne = harness.send("GET", "/dogs?select=name,owner:users(name)&order=id")
      #expect(manyToOne.json.arrayValue?.first?["owner"]?["name"]?.stringValue == "Kim")
      let oneToMany = harness.send(
        "GET", "/users?select=name,dogs(name)&id=eq.00000000-0000-0000-0000-000000000001")
      #expect(
        oneToMany.text == #"[{"name":"Kim","dogs":[{"name":"Bori"}, "# + "\n"
          + #" {"name":"Coco"}]}]"#)
      let manyToMany = harness.send(
        "GET", "/dogs?select=name,tags(name)&order=id&tags.order=name.desc")
      #expect(
        manyToMany.json.arrayValue?.map { $0["tags"]?.arrayValue?.count ?? -1 } == [2, 1, 0])
      #expect(
        manyToMany.json.arrayValue?.first?["tags"]?.arrayValue?.first?["name"]?.stringValue
          == "loud")
      let oneToOne = harness.send("GET", "/users?select=name,profiles(bio)&name=eq.Kim")
      #expect(oneToOne.text == #"[{"name":"Kim","profiles":{"bio":"hello"}}]"#)
      let byColumn = harness.send("GET", "/walks?select=note,walker(name),dog(name)&order=id")
      #expect(byColumn.json.arrayValue?.first?["walker"]?["name"]?.stringValue == "Lee")
      let hinted = harness.send("GET", "/users?select=name,friends!a(b)&name=eq.Kim")
      #expect(hinted.status == 200, "\(hinted.text)")
    }

    @Test func embeddedFiltersInnerJoinsAndNullEmbeds() {
      #expect(
        names("/users?select=name,dogs!inner(name)&dogs.name=eq.Dubu") == ["Lee"])
      let left = harness.send("GET", "/users?select=name,dogs(name)&dogs.name=eq.Dubu&order=name")
      #expect(left.json.arrayValue?.count == 4)
      #expect(names("/users?select=name,dogs(name)&dogs=not.is.null&order=name") == ["Kim", "Lee"])
      #expect(names("/users?select=name,dogs(name)&dogs=is.null&order=name") == ["Émile 🐶", "박지성"])
      #expect(
        names("/users?select=name,dogs!inner()&dogs.or=(name.eq.Bori,name.eq.Dubu)&order=name")
          == ["Kim", "Lee"])
      let counted = harness.send(
        "GET", "/users?select=name,dogs!inner(name)&dogs.name=eq.Bori",
        headers: [("Prefer", "count=exact")])
      #expect(counted.header("Content-Range") == "0-0/1")
      let limited = harness.send(
        "GET", "/users?select=name,dogs(name)&dogs.limit=1&dogs.order=name.desc&name=eq.Kim")
      #expect(limited.text == #"[{"name":"Kim","dogs":[{"name":"Coco"}]}]"#)
    }

    @Test func orderingNullsAndRelatedOrder() {
      #expect(
        names("/users?select=name&order=age.desc.nullslast") == ["Émile 🐶", "Kim", "Lee", "박지성"])
      #expect(
        names("/users?select=name&order=age.asc.nullsfirst") == ["박지성", "Lee", "Kim", "Émile 🐶"])
      #expect(
        names("/users?select=name&order=data->>blood.desc.nullslast,name") == [
          "Lee", "Kim", "Émile 🐶", "박지성",
        ])
      let related = harness.send(
        "GET", "/dogs?select=name,owner:users(name)&order=owner(name).desc,name")
      #expect(
        related.json.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Dubu", "Bori", "Coco"])
      let notToOne = harness.send("GET", "/users?select=name,dogs(name)&order=dogs(name)")
      #expect(notToOne.status == 400)
      #expect(notToOne.json["code"]?.stringValue == "PGRST118")
    }

    @Test func rangesCountsAndStatuses() {
      let page = harness.send(
        "GET", "/users?select=name&order=name&limit=2", headers: [("Prefer", "count=exact")])
      #expect(page.status == 206)
      #expect(page.header("Content-Range") == "0-1/4")
      let all = harness.send("GET", "/users?select=name", headers: [("Prefer", "count=exact")])
      #expect(all.status == 200)
      #expect(all.header("Content-Range") == "0-3/4")
      let noCount = harness.send("GET", "/users?select=name&limit=2")
      #expect(noCount.status == 200)
      #expect(noCount.header("Content-Range") == "0-1/*")
      let header = harness.send(
        "GET", "/users?select=name&order=name",
        headers: [("Range", "1-2"), ("Prefer", "count=exact")])
      #expect(header.status == 206)
      #expect(header.header("Content-Range") == "1-2/4")
      #expect(header.json.arrayValue?.count == 2)
      let intersected = harness.send(
        "GET", "/users?select=name&order=name&limit=1", headers: [("Range", "0-2")])
      #expect(intersected.json.arrayValue?.count == 1)
      let beyond = harness.send(
        "GET", "/users?select=name&offset=10", headers: [("Prefer", "count=exact")])
      #expect(beyond.status == 416)
      #expect(beyond.json["code"]?.stringValue == "PGRST103")
      #expect(
        beyond.json["details"]?.stringValue
          == "An offset of 10 was requested, but there are only 4 rows.")
      let empty = harness.send(
        "GET", "/users?select=name&name=eq.nobody", headers: [("Prefer", "count=exact")])
      #expect(empty.header("Content-Range") == "*/0")
      #expect(empty.text == "[]")
      let emptyNoCount = harness.send("GET", "/users?select=name&name=eq.nobody")
      #expect(emptyNoCount.header("Content-Range") == "*/*")
      let planned = harness.send(
        "GET", "/users?select=name", headers: [("Prefer", "count=planned")])
      #expect(planned.header("Content-Range")?.hasPrefix("0-3/") == true)
      let estimated = harness.send(
        "GET", "/users?select=name", headers: [("Prefer", "count=estimated")])
      #expect(estimated.header("Content-Range") == "0-3/4")
      let head = harness.send("HEAD", "/users?select=name", headers: [("Prefer", "count=exact")])
      #expect(head.status == 200)
      #expect(head.body.isEmpty)
      #expect(head.header("Content-Range") == "0-3/4")
    }

    @Test func singularAndCSV() {
      let one = harness.send(
        "GET", "/users?select=name&name=eq.Kim",
        headers: [("Accept", "application/vnd.pgrst.object+json")])
      #expect(one.status == 200)
      #expect(one.text == #"{"name":"Kim"}"#)
      #expect(one.header("Content-Type") == "application/vnd.pgrst.object+json; charset=utf-8")
      let many = harness.send(
        "GET", "/users?select=name", headers: [("Accept", "application/vnd.pgrst.object+json")])
      #expect(many.status == 406)
      #expect(many.json["code"]?.stringValue == "PGRST116")
      #expect(
        many.json["message"]?.stringValue == "Cannot coerce the result to a single JSON object")
      #expect(many.json["details"]?.stringValue == "The result contains 4 rows")
      let none = harness.send(
        "GET", "/users?select=name&name=eq.x",
        headers: [("Accept", "application/vnd.pgrst.object+json")])
      #expect(none.json["details"]?.stringValue == "The result contains 0 rows")
      let csv = harness.send(
        "GET", "/users?select=name,age&order=name&limit=2", headers: [("Accept", "text/csv")])
      #expect(csv.status == 200)
      #expect(csv.text == "name,age\nKim,30\nLee,12")
      #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
      let stripped = harness.send(
        "GET", "/users?select=name,age&name=eq.%EB%B0%95%EC%A7%80%EC%84%B1",
        headers: [("Accept", "application/vnd.pgrst.array+json;nulls=stripped")])
      #expect(stripped.text == #"[{"name":"박지성"}]"#)
    }

    @Test func profilesAndViews() {
      let other = harness.send("GET", "/things?select=label", headers: [("Accept-Profile", "api")])
      #expect(other.status == 406)  // `api` is not exposed by default
      #expect(other.json["code"]?.stringValue == "PGRST106")
      #expect(other.json["message"]?.stringValue == "Invalid schema: api")
      #expect(other.json["hint"]?.stringValue == "Only the following schemas are exposed: public")
      let view = harness.send("GET", "/adults?select=name&order=name")
      #expect(view.json.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Kim", "Émile 🐶"])
    }
  }
}
