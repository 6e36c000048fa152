import SNMWire
import Testing

@testable import SNMLocal
@testable import SNMLocalREST

/// `text/csv` bodies read as PostgREST's Payload.hs reads them (cassava's decodeByName).
@Suite struct CSVBodyTests {
  @Test func rowsFromAHeaderAndRecords() throws {
    let rows = try CSVBody.rows(Array("name,age\nBori,3\n\"Max, Jr.\",NULL\n".utf8))
    #expect(
      rows
        == .array([
          .object(JSONObject([("name", .string("Bori")), ("age", .string("3"))])),
          .object(JSONObject([("name", .string("Max, Jr.")), ("age", .null)])),
        ]))
  }

  @Test func quotesLineEndsAndEmptyFields() throws {
    let records = try CSVBody.records(
      Array("a,b,c\r\n\"x \"\"y\"\"\",,\"\"\r\nlast,line,nobreak".utf8))
    #expect(records == [["a", "b", "c"], ["x \"y\"", "", ""], ["last", "line", "nobreak"]])
    #expect(try CSVBody.records(Array("a\n\"multi\nline\"\n".utf8)) == [["a"], ["multi\nline"]])
  }

  @Test(arguments: ["name,age\nBori\n", "name\n\"open", "", "a\n\"x\"y\n"])
  func malformedBodiesAre400PGRST102(_ text: String) {
    #expect(throws: RESTError.self) { try CSVBody.rows(Array(text.utf8)) }
    do {
      _ = try CSVBody.rows(Array(text.utf8))
    } catch {
      #expect(error.code == "PGRST102" && error.status == 400)
    }
  }

  @Test func requestBodyTakesTextCSV() throws {
    let body = try RequestBody.parse(
      Array("name\nBori\n".utf8), contentType: "text/csv; charset=utf-8")
    #expect(body.value == .array([.object(JSONObject([("name", .string("Bori"))]))]))
    #expect(try body.uniformKeys() == ["name"])
  }

  @Test func txIsUnderstoodButNeverAppliedAsUnderDbTxEndCommit() throws {
    // Supabase's PostgREST runs with db-tx-end = commit: tx is neither applied nor echoed, and
    // not invalid under handling=strict; a tx value PostgREST does not know is.
    let prefs = try Preferences.parse(["return=representation, tx=rollback, handling=strict"])
    #expect(prefs.applied() == "return=representation, handling=strict")
    #expect(try Preferences.parse(["tx=commit"]).applied() == nil)
    #expect(throws: RESTError.self) { try Preferences.parse(["handling=strict, tx=maybe"]) }
  }

  @Test func aTimezoneOutsideTheDatabasesNamesIsIgnoredOrInvalidWhenStrict() throws {
    let names: Set<String> = ["UTC", "America/Los_Angeles"]
    let known = try Preferences.parse(["timezone=America/Los_Angeles"], timezones: names)
    #expect(known.timezone == "America/Los_Angeles")
    let unknown = try Preferences.parse(["timezone=Invalid/Timezone"], timezones: names)
    #expect(unknown.timezone == nil && unknown.applied() == nil)
    #expect(throws: RESTError.invalidPreferences(["timezone=Invalid/Timezone"])) {
      try Preferences.parse(["handling=strict, timezone=Invalid/Timezone"], timezones: names)
    }
  }
}
