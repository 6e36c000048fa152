import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// `rpc` and error answers through the gateway against real Postgres (see `GatewayHarness`).
extension GatewayDatabaseTests {
  @Suite final class Call {
    let harness: GatewayHarness

    init() throws {
      harness = try GatewayHarness()
    }

    @Test func scalarFunctionsByPostAndGet() {
      #expect(harness.send("POST", "/rpc/add", body: #"{"a": 1, "b": 2}"#).text == "3")
      #expect(harness.send("POST", "/rpc/add", body: #"{"a": 1}"#).text == "11")
      #expect(harness.send("GET", "/rpc/add?a=5&b=6").text == "11")
      #expect(harness.send("GET", "/rpc/sum?numbers=%7B1,2,3%7D").text == "6")
      #expect(harness.send("POST", "/rpc/sum", body: #"{"numbers": [4, 5]}"#).text == "9")
      #expect(
        harness.send("POST", "/rpc/echo", body: #"{"payload": {"k": [1]}}"#).text == #"{"k": [1]}"#)
      // An array body calls with its first object; an array of others is PostgREST 13's
      // "All object keys must match" (payloadAttributes), not a function lookup.
      let scalars = harness.send("POST", "/rpc/echo", body: #"[1,2]"#)
      #expect(scalars.status == 400)
      #expect(scalars.json["message"]?.stringValue == "All object keys must match")
    }

    @Test func setReturningFunctionsTakeFilters() {
      let dogs = harness.send(
        "POST", "/rpc/dogs_of?select=name&order=name.desc&name=neq.Nobody",
        body: #"{"owner": "00000000-0000-0000-0000-000000000001"}"#)
      #expect(dogs.status == 200)
      #expect(dogs.text == #"[{"name":"Coco"}, "# + "\n" + #" {"name":"Bori"}]"#)
      let embedded = harness.send(
        "GET",
        "/rpc/dogs_of?owner=00000000-0000-0000-0000-000000000002&select=name,owner:users(name)")
      #expect(embedded.text == #"[{"name":"Dubu","owner":{"name":"Lee"}}]"#)
      let single = harness.send(
        "POST", "/rpc/dogs_of?select=name&name=eq.Bori",
        headers: [("Accept", "application/vnd.pgrst.object+json")],
        body: #"{"owner": "00000000-0000-0000-0000-000000000001"}"#)
      #expect(single.text == #"{"name":"Bori"}"#)
      let table = harness.send("GET", "/rpc/pairs?y=eq.two", headers: [("Prefer", "count=exact")])
      #expect(table.text == #"[{"x":2,"y":"two"}]"#)
      #expect(table.header("Content-Range") == "0-0/1")
      let limited = harness.send("GET", "/rpc/pairs?limit=1&order=x.desc")
      #expect(limited.text == #"[{"x":2,"y":"two"}]"#)
    }

    @Test func voidVolatileAndMissingFunctions() {
      let void = harness.send("POST", "/rpc/touch", body: #"{"note": "touched"}"#)
      #expect(void.status == 204)
      #expect(void.body.isEmpty)
      // GET runs a VOLATILE function too, read-only (PostgREST): writing fails in Postgres.
      let get = harness.send("GET", "/rpc/touch?note=x")
      #expect(get.status == 405)
      #expect(get.json["code"]?.stringValue == "25006")
      #expect(
        get.json["message"]?.stringValue == "cannot execute INSERT in a read-only transaction")
      let volatileRead = harness.send("GET", "/rpc/fail")
      #expect(volatileRead.status == 400, "fail() is VOLATILE and ran: its own error")
      #expect(volatileRead.json["message"]?.stringValue == "nope")
      let patch = harness.send("PATCH", "/rpc/add", body: "{}")
      #expect(patch.status == 405)
      let missing = harness.send("POST", "/rpc/addd", body: #"{"a": 1}"#)
      #expect(missing.status == 404)
      #expect(missing.json["code"]?.stringValue == "PGRST202")
      #expect(
        missing.json["message"]?.stringValue
          == "Could not find the function public.addd(a) in the schema cache")
      #expect(
        missing.json["hint"]?.stringValue == "Perhaps you meant to call the function public.add")
      let wrongArgs = harness.send("POST", "/rpc/add", body: #"{"x": 1}"#)
      #expect(wrongArgs.status == 404)
      #expect(wrongArgs.json["code"]?.stringValue == "PGRST202")
      let raised = harness.send("POST", "/rpc/fail", body: "{}")
      #expect(raised.status == 400)
      #expect(
        raised.text == #"{"code":"P0001","details":"it failed","hint":"do not","message":"nope"}"#)
    }

    @Test func requestErrorsHaveTheirCodes() {
      let cases: [(String, String, Int, String)] = [
        ("GET", "/users?select=name&age=noop.1", 400, "PGRST100"),
        ("GET", "/users?select=name,", 400, "PGRST100"),
        ("GET", "/users?or=(age.eq.1", 400, "PGRST100"),
        ("GET", "/users?order=age.sideways", 400, "PGRST100"),
        ("GET", "/usrs", 404, "PGRST205"),
        ("GET", "/users?select=name,cats(name)", 400, "PGRST200"),
        ("GET", "/users?select=name,friends(b)", 300, "PGRST201"),
        ("GET", "/users?select=name&dogs.name=eq.x", 400, "PGRST108"),
        ("GET", "/users?select=name,dogs(name)&dogs=eq.1", 400, "42703"),
        ("GET", "/users?select=age.sum()", 400, "PGRST123"),
        ("GET", "/a/b/c", 404, "PGRST125"),
        ("TRACE", "/users", 405, "PGRST117"),
        ("GET", "/users?select=name::nosuchtype", 400, "42704"),
      ]
      for (method, target, status, code) in cases {
        let response = harness.send(method, target)
        #expect(response.status == status, "\(target): \(response.text)")
        #expect(response.json["code"]?.stringValue == code, "\(target): \(response.text)")
      }
      let typo = harness.send("GET", "/usrs")
      #expect(typo.json["hint"]?.stringValue == "Perhaps you meant the table 'public.users'")
      let accept = harness.send("GET", "/users", headers: [("Accept", "image/png")])
      #expect(accept.status == 406)
      #expect(accept.json["code"]?.stringValue == "PGRST107")
      #expect(
        accept.json["message"]?.stringValue == "None of these media types are available: image/png")
      let range = harness.send("GET", "/users", headers: [("Range", "5-2")])
      #expect(range.status == 416)
      #expect(range.json["code"]?.stringValue == "PGRST103")
      let strict = harness.send("GET", "/users", headers: [("Prefer", "handling=strict, bogus=1")])
      #expect(strict.status == 400)
      #expect(strict.json["code"]?.stringValue == "PGRST122")
      let lenient = harness.send(
        "GET", "/users?select=name&limit=1", headers: [("Prefer", "bogus=1")])
      #expect(lenient.status == 200)
    }

    @Test func openAPIDocument() {
      let response = harness.send("GET", "/", headers: [("Host", "127.0.0.1:54330")])
      #expect(response.status == 200)
      #expect(response.header("Content-Type") == "application/openapi+json; charset=utf-8")
      let document = response.json
      #expect(document["swagger"]?.stringValue == "2.0")
      let users = document["definitions"]?["users"]
      #expect(users?["properties"]?["id"]?["format"]?.stringValue == "uuid")
      #expect(
        users?["properties"]?["id"]?["description"]?.stringValue
          == "Note:\nThis is a Primary Key.<pk/>")
      #expect(users?["properties"]?["age"]?["type"]?.stringValue == "integer")
      #expect(users?["properties"]?["tags"]?["type"]?.stringValue == "array")
      // As PostgREST's makeTableDef: every NOT NULL column, defaults or not.
      #expect(
        users?["required"]?.arrayValue?.compactMap(\.stringValue) == ["id", "name", "created_at"])
      // parseDefault: string types lose their cast and quotes, others are read as JSON or dropped.
      #expect(users?["properties"]?["status"]?["default"] == .string("new"))
      #expect(users?["properties"]?["created_at"]?["default"] == .string("now()"))
      #expect(users?["properties"]?["tags"]?["default"] == nil)
      #expect(users?["properties"]?["id"]?["default"] == nil)
      let filter = document["parameters"]?["rowFilter.users.id"]
      #expect(filter?["format"] == nil)
      #expect(filter?["description"] == nil)
      let dogs = document["definitions"]?["dogs"]
      #expect(
        dogs?["properties"]?["owner"]?["description"]?.stringValue
          == "Note:\nThis is a Foreign Key to `users.id`.<fk table='users' column='id'/>")
      #expect(document["paths"]?["/users"]?["get"] != nil)
      #expect(document["paths"]?["/rpc/add"]?["get"] != nil)
      #expect(document["paths"]?["/rpc/touch"]?["get"] == nil)
      #expect(document["paths"]?["/rpc/touch"]?["post"] != nil)
      #expect(
        document["paths"]?["/rpc/touch"]?["post"]?["produces"]?.arrayValue?.contains("text/csv")
          == false)
      let anon = harness.send("GET", "/", auth: GatewayHarness.anon)
      // A table offers every verb whatever the role's privileges (makePathItem).
      #expect(anon.json["paths"]?["/users"]?["post"] != nil)
      #expect(anon.json["paths"]?["/users"]?["patch"] != nil)
      #expect(anon.json["paths"]?["/users"]?["get"] != nil)
    }

    @Test func newTablesAreFoundWithoutARestart() throws {
      // DDL's event trigger notifies the listener; a request right after the commit catches up
      // with it (one NOTIFY of its own), so no wait and no reload caused by the request.
      let gateway = RESTGateway()
      gateway.warmUp(database: harness.pool)
      gateway.listenForReloads(database: harness.pool)
      let request = HTTPRequest(method: "GET", target: "/rest/v1/late?select=id")
      #expect(
        gateway.handle(request, auth: GatewayHarness.service, database: harness.pool).status == 404)
      try harness.admin.executeScript(
        "create table public.late (id int primary key); grant select on public.late to service_role;"
          + "insert into public.late values (7)")
      let found = gateway.handle(request, auth: GatewayHarness.service, database: harness.pool)
      #expect(found.status == 200)
      #expect(found.text == #"[{"id":7}]"#)
      // A missing name that stays missing reloads nothing and answers as before.
      let before = try gateway.store.current(database: harness.pool).version
      let missing = HTTPRequest(method: "GET", target: "/rest/v1/still_missing")
      for _ in 0..<20 {
        #expect(
          gateway.handle(missing, auth: GatewayHarness.service, database: harness.pool).status
            == 404)
      }
      let embed = HTTPRequest(method: "GET", target: "/rest/v1/late?select=id,nothing(*)")
      #expect(
        gateway.handle(embed, auth: GatewayHarness.service, database: harness.pool).status == 400)
      #expect(try gateway.store.current(database: harness.pool).version == before)
    }

    @Test func unknownNamesNeverReloadWithoutAListener() throws {
      let gateway = RESTGateway()
      gateway.warmUp(database: harness.pool)
      let before = try gateway.store.current(database: harness.pool).version
      try harness.admin.executeScript(
        "create table public.unheard (id int primary key); grant select on public.unheard to "
          + "service_role")
      let request = HTTPRequest(method: "GET", target: "/rest/v1/unheard?select=id")
      #expect(
        gateway.handle(request, auth: GatewayHarness.service, database: harness.pool).status == 404)
      #expect(try gateway.store.current(database: harness.pool).version == before)
    }

    @Test func notifyPgrstReloadsTheSchemaCache() throws {
      let gateway = RESTGateway()
      gateway.warmUp(database: harness.pool)
      gateway.listenForReloads(database: harness.pool)
      // Made with the event triggers off (as a replica applies DDL): nothing tells the gateway.
      try harness.admin.executeScript(
        "begin; set local session_replication_role = replica; create table public.notified "
          + "(id int primary key); grant select on public.notified to service_role; "
          + "insert into public.notified values (3); commit")
      let request = HTTPRequest(method: "GET", target: "/rest/v1/notified?select=id")
      #expect(
        gateway.handle(request, auth: GatewayHarness.service, database: harness.pool).status == 404)
      try harness.admin.executeScript("notify pgrst, 'reload schema'")
      let found = gateway.handle(request, auth: GatewayHarness.service, database: harness.pool)
      #expect(found.text == #"[{"id":3}]"#)
      #expect(RESTGateway.isReloadRequest("reload config"))
      #expect(!RESTGateway.isReloadRequest("hello"))
    }
  }
}
