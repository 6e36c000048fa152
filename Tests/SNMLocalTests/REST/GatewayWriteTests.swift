import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// Writes through the gateway against real Postgres (see `GatewayHarness`).
extension GatewayDatabaseTests {
  @Suite final class Write {
    let harness: GatewayHarness
    static let kim = "00000000-0000-0000-0000-000000000001"
    static let lee = "00000000-0000-0000-0000-000000000002"

    init() throws {
      harness = try GatewayHarness()
    }

    func count(_ table: String, _ filter: String = "") -> Int? {
      let response = harness.send(
        "HEAD", "/\(table)?\(filter)", headers: [("Prefer", "count=exact")])
      return response.header("Content-Range")?.split(separator: "/").last.flatMap { Int($0) }
    }

    @Test func insertMinimalAndRepresentation() {
      let minimal = harness.send("POST", "/tags", body: #"{"id": 10, "name": "new"}"#)
      #expect(minimal.status == 201)
      #expect(minimal.body.isEmpty)
      #expect(minimal.header("Content-Range") == "*/*")
      let rows = harness.send(
        "POST", "/tags?select=id,name", headers: [("Prefer", "return=representation,count=exact")],
        body: #"[{"id": 11, "name": "a"}, {"id": 12, "name": "b"}]"#)
      #expect(rows.status == 201)
      #expect(rows.text == #"[{"id":11,"name":"a"}, "# + "\n" + #" {"id":12,"name":"b"}]"#)
      #expect(rows.header("Content-Range") == "*/2")
      #expect(count("tags") == 5)
    }

    @Test func insertWithColumnsDefaultsAndEmbeds() {
      let listed = harness.send(
        "POST", "/users?columns=id,name&select=name,status",
        headers: [("Prefer", "return=representation")],
        body: #"[{"id": "00000000-0000-0000-0000-0000000000aa", "name": "A", "status": "ignored"}]"#
      )
      #expect(listed.status == 201, "\(listed.text)")
      #expect(listed.text == #"[{"name":"A","status":"new"}]"#)
      let missingNull = harness.send(
        "POST", "/users?columns=id,name,status&select=status",
        headers: [("Prefer", "return=representation")],
        body: #"{"id": "00000000-0000-0000-0000-0000000000ab", "name": "B"}"#)
      #expect(missingNull.text == #"[{"status":null}]"#)
      let missingDefault = harness.send(
        "POST", "/users?columns=id,name,status&select=status",
        headers: [("Prefer", "return=representation,missing=default")],
        body: #"[{"id": "00000000-0000-0000-0000-0000000000ac", "name": "C"}]"#)
      #expect(missingDefault.text == #"[{"status":"new"}]"#)
      #expect(
        missingDefault.header("Preference-Applied") == "missing=default, return=representation")
      let identity = harness.send(
        "POST", "/dogs?select=name,owner:users(name)",
        headers: [("Prefer", "return=representation")],
        body: #"{"owner": "\#(Self.kim)", "name": "Nuri"}"#)
      #expect(identity.status == 201)
      #expect(identity.text == #"[{"name":"Nuri","owner":{"name":"Kim"}}]"#)
      let single = harness.send(
        "POST", "/tags?select=name",
        headers: [
          ("Prefer", "return=representation"), ("Accept", "application/vnd.pgrst.object+json"),
        ],
        body: #"{"id": 30, "name": "solo"}"#)
      #expect(single.text == #"{"name":"solo"}"#)
    }

    @Test func upserts() {
      let merged = harness.send(
        "POST", "/tags?on_conflict=id",
        headers: [("Prefer", "resolution=merge-duplicates,return=representation")],
        body: #"[{"id": 1, "name": "quiet"}]"#)
      #expect(merged.status == 200, "\(merged.text)")
      #expect(merged.text == #"[{"id":1,"name":"quiet"}]"#)
      let mixed = harness.send(
        "POST", "/tags", headers: [("Prefer", "resolution=merge-duplicates,return=representation")],
        body: #"[{"id": 2, "name": "noisy"}, {"id": 3, "name": "new"}]"#)
      #expect(mixed.status == 201)
      #expect(mixed.json.arrayValue?.count == 2)
      let ignored = harness.send(
        "POST", "/tags",
        headers: [("Prefer", "resolution=ignore-duplicates,return=representation")],
        body: #"[{"id": 2, "name": "x"}, {"id": 4, "name": "four"}]"#)
      #expect(ignored.status == 201)
      #expect(ignored.text == #"[{"id":4,"name":"four"}]"#)
      let byName = harness.send(
        "POST", "/tags?on_conflict=name",
        headers: [("Prefer", "resolution=merge-duplicates,return=representation")],
        body: #"{"id": 99, "name": "four"}"#)
      #expect(byName.text == #"[{"id":99,"name":"four"}]"#)
      let conflict = harness.send("POST", "/tags", body: #"{"id": 1, "name": "dup"}"#)
      #expect(conflict.status == 409)
      #expect(conflict.json["code"]?.stringValue == "23505")
      #expect(conflict.json["details"]?.stringValue == "Key (id)=(1) already exists.")
    }

    @Test func updatesAndDeletes() {
      let minimal = harness.send("PATCH", "/users?name=eq.Lee", body: #"{"age": 13}"#)
      #expect(minimal.status == 204)
      #expect(minimal.body.isEmpty)
      let returned = harness.send(
        "PATCH", "/users?name=eq.Lee&select=name,age",
        headers: [("Prefer", "return=representation,count=exact")], body: #"{"age": 14}"#)
      #expect(returned.status == 200)
      #expect(returned.text == #"[{"name":"Lee","age":14}]"#)
      #expect(returned.header("Content-Range") == "0-0/1")
      let none = harness.send(
        "PATCH", "/users?name=eq.nobody", headers: [("Prefer", "count=exact")], body: #"{"age": 1}"#
      )
      #expect(none.status == 204)
      #expect(none.header("Content-Range") == "*/0")
      let singleTooMany = harness.send(
        "PATCH", "/users?age=gt.0",
        headers: [
          ("Prefer", "return=representation"), ("Accept", "application/vnd.pgrst.object+json"),
        ],
        body: #"{"status": "bulk"}"#)
      #expect(singleTooMany.status == 406)
      #expect(count("users", "status=eq.bulk") == 0)  // rolled back
      let deleted = harness.send(
        "DELETE", "/walks?note=eq.park&select=note", headers: [("Prefer", "return=representation")])
      #expect(deleted.status == 200)
      #expect(deleted.text == #"[{"note":"park"}]"#)
      // DELETE answers as POST does, `*/n` (PostgREST's contentRangeH 1 0), never `0-0/1`.
      #expect(deleted.header("Content-Range") == "*/*")
      let nothing = harness.send(
        "DELETE", "/dog_tags?dog_id=eq.999", headers: [("Prefer", "return=minimal,count=exact")])
      #expect(nothing.status == 204)
      #expect(nothing.header("Content-Range") == "*/0")
      let gone = harness.send(
        "DELETE", "/dog_tags?dog_id=eq.1", headers: [("Prefer", "return=minimal,count=exact")])
      #expect(gone.status == 204)
      #expect(gone.header("Content-Range") == "*/2")
      #expect(count("dog_tags") == 1)
      let limited = harness.send(
        "DELETE", "/docs?order=id.desc&limit=1&select=id",
        headers: [("Prefer", "return=representation")])
      #expect(limited.text == #"[{"id":2}]"#)
      #expect(count("docs") == 1)
      let strict = harness.send(
        "PATCH", "/users?age=gt.0", headers: [("Prefer", "handling=strict,max-affected=1")],
        body: #"{"status": "strict"}"#)
      #expect(strict.status == 400)
      #expect(strict.json["code"]?.stringValue == "PGRST124")
      #expect(count("users", "status=eq.strict") == 0)
    }

    @Test func bodyAndColumnErrors() {
      let unknown = harness.send("POST", "/tags", body: #"{"id": 40, "nam": "x"}"#)
      #expect(unknown.status == 400)
      #expect(unknown.json["code"]?.stringValue == "PGRST204")
      #expect(
        unknown.json["message"]?.stringValue
          == "Could not find the 'nam' column of 'tags' in the schema cache")
      let invalid = harness.send("POST", "/tags", body: #"{"id": 40,"#)
      #expect(invalid.status == 400)
      #expect(invalid.json["code"]?.stringValue == "PGRST102")
      let mismatch = harness.send("POST", "/tags", body: #"[{"id": 41}, {"name": "x"}]"#)
      #expect(mismatch.json["message"]?.stringValue == "All object keys must match")
      let foreign = harness.send(
        "POST", "/dogs", body: #"{"owner": "00000000-0000-0000-0000-0000000000ff", "name": "x"}"#)
      #expect(foreign.status == 409)
      #expect(foreign.json["code"]?.stringValue == "23503")
      let badType = harness.send("GET", "/users?age=eq.null")
      #expect(badType.status == 400)
      #expect(badType.json["code"]?.stringValue == "22P02")
    }

    @Test func rowLevelSecurityAndPrivileges() {
      let kim = GatewayHarness.user(Self.kim)
      let lee = GatewayHarness.user(Self.lee)
      #expect(harness.send("GET", "/walks?select=note", auth: kim).text == "[]")
      #expect(
        harness.send("GET", "/walks?select=note&order=id", auth: lee).json.arrayValue?.count == 2)
      let forged = harness.send(
        "POST", "/walks", body: #"{"walker": "\#(Self.lee)", "note": "forged"}"#, auth: kim)
      #expect(forged.status == 403)
      #expect(forged.json["code"]?.stringValue == "42501")
      let own = harness.send(
        "POST", "/walks?select=note", headers: [("Prefer", "return=representation")],
        body: #"{"walker": "\#(Self.kim)", "note": "mine"}"#, auth: kim)
      #expect(own.status == 201, "\(own.text)")
      #expect(own.text == #"[{"note":"mine"}]"#)
      let anonymous = harness.send(
        "POST", "/tags", body: #"{"id": 50, "name": "anon"}"#, auth: GatewayHarness.anon)
      #expect(anonymous.status == 401)
      #expect(anonymous.json["code"]?.stringValue == "42501")
      #expect(anonymous.header("WWW-Authenticate") == "Bearer")
      let whoami = harness.send("POST", "/rpc/whoami", body: "{}", auth: kim)
      #expect(whoami.text == "\"\(Self.kim)\"")
      #expect(
        harness.send("GET", "/walks?select=note", auth: GatewayHarness.service).json.arrayValue?
          .count == 3)
    }
  }
}
