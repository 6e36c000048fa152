import Foundation
import Testing

@testable import SNMQuery

/// The CI statements: defer, within, heads and guards, the newer expectations, files, generators.
@Suite struct ParserScriptsCITests {
  static let forms: [CanonicalCase] = [
    CanonicalCase(
      "defer from dog_profile delete where id eq $dog.id",
      "defer from dog_profile delete where id eq $dog.id"),
    CanonicalCase("defer echo 'bye'", #"defer echo "bye""#),
    CanonicalCase(
      "from dog_profile select id\nexpect rows 1 within 10s every 500ms",
      "from dog_profile select id\nexpect rows == 1 within 10000ms every 500ms"),
    CanonicalCase(
      "let dog = from dog_profile select id single\nexpect $dog.id == 3 within 1.5m",
      "let dog = from dog_profile select id single\nexpect $dog.id == 3 within 90000ms"),
    CanonicalCase(
      "from dog_profile select id where age >= 3 count exact head",
      "from dog_profile select id where age gte 3 count exact head"),
    CanonicalCase("expect count >= 12", "expect count >= 12"),
    CanonicalCase(
      "expect header Content-Range == '0-9/42'", #"expect header "Content-Range" == "0-9/42""#),
    CanonicalCase("expect header 'x-total' matches '^4'", #"expect header "x-total" matches "^4""#),
    CanonicalCase("expect time < 300ms", "expect time < 300ms"),
    CanonicalCase("expect $dog.walks count 3", "expect $dog.walks count == 3"),
    CanonicalCase("expect $dog.photo exists", "expect $dog.photo exists"),
    CanonicalCase("expect $dog.photo not exists", "expect $dog.photo not exists"),
    CanonicalCase("expect $dog.age is number", "expect $dog.age is number"),
    CanonicalCase("expect $dog.age is not null", "expect $dog.age is not null"),
    CanonicalCase(
      "expect $last.headers.content-range == '*/0'",
      #"expect $last.headers.content-range == "*/0""#),
    CanonicalCase(
      #"from dog_profile update {"a": 1} where id eq 1 max affected 1"#,
      #"from dog_profile update {"a": 1} where id eq 1 max affected 1"#),
    CanonicalCase(
      "from dog_profile delete where id eq 1 rollback",
      "from dog_profile delete where id eq 1 rollback"),
    CanonicalCase(
      "from dog_profile insert file 'dogs.json'", #"from dog_profile insert file "dogs.json""#),
    CanonicalCase(
      "from dog_profile insert csv 'd-${me}.csv'", #"from dog_profile insert csv "d-${me}.csv""#),
    CanonicalCase(
      "from dog_profile select * > 'out.csv'", #"from dog_profile select * > "out.csv""#),
    CanonicalCase("set output 'run.log'", #"\o "run.log""#),
    CanonicalCase(
      "set output '${env.SNM_TEST_TMPDIR}/run-${n}.log'",
      #"\o "${env.SNM_TEST_TMPDIR}/run-${n}.log""#),
    CanonicalCase(
      "echo '${uuid} ${now} ${now + 1h} ${now - 500ms} ${random 8}'",
      #"echo "${uuid} ${now} ${now + 3600000ms} ${now - 500ms} ${random 8}""#),
  ]

  @Test(arguments: forms)
  func form(_ testCase: CanonicalCase) {
    #expect(canonical(testCase.input) == testCase.canonical)
  }

  static let refused: [(String, String)] = [
    ("defer let x = 1", "defer-not-allowed"),
    ("defer expect rows 1", "defer-not-allowed"),
    ("defer", "expected"),
    ("let x = 1\nexpect $x == 1 within 1s", "within-without-request"),
    ("from dog_profile select id\nexpect error within 1s", "within-on-error"),
    ("from dog_profile select id\nexpect rows 1 within 10", "duration-without-unit"),
    ("from dog_profile select id\nexpect rows 1 within 1s every 0ms", "zero-interval"),
    ("from dog_profile select id head", "head-without-count"),
    (#"from dog_profile insert {"a": 1} count exact head"#, "guard-not-allowed"),
    (#"from dog_profile insert {"a": 1} max affected 1"#, "guard-not-allowed"),
    ("from dog_profile select id rollback", "guard-not-allowed"),
    ("from dog_profile select id > 'out.xlsx'", "unknown-output-format"),
    ("echo '${random}'", "invalid-generator"),
    ("echo '${now + 1 hour}'", "invalid-generator"),
  ]

  @Test func eachRefusedFormHasItsMessage() {
    for (text, id) in Self.refused {
      #expect(parseAndCheck(text, variables: ["dog"]).errors.contains(id), "\(text)")
    }
  }

  @Test func generatorsParse() {
    #expect(Generator.parse("uuid") == .uuid)
    #expect(Generator.parse(" now ") == .now(offsetMilliseconds: 0))
    #expect(Generator.parse("now+1h") == .now(offsetMilliseconds: 3_600_000))
    #expect(Generator.parse("now - 30m") == .now(offsetMilliseconds: -1_800_000))
    #expect(Generator.parse("random 8") == .random(length: 8))
    #expect(Generator.parse("random 0") == nil)
    #expect(Generator.parse("nowhere") == nil)
    #expect(Generator.parse("name") == nil)
    #expect(!Generator.looksLikeOne("now_playing"))
    #expect(Generator.looksLikeOne("now + x"))
  }

  @Test func generatorsMakeFreshValues() throws {
    let text = try #require(Generator.random(length: 12).make().utf8.count)
    #expect(text == 12)
    #expect(Generator.uuid.make() != Generator.uuid.make())
    let date = Date(timeIntervalSince1970: 1_796_000_000.25)
    #expect(Generator.now(offsetMilliseconds: 0).make(now: date) == "2026-11-30T00:53:20.250Z")
    #expect(
      Generator.now(offsetMilliseconds: 86_400_000).make(now: date) == "2026-12-01T00:53:20.250Z")
  }

  @Test func durations() {
    #expect(DurationValue.milliseconds(of: "500ms") == 500)
    #expect(DurationValue.milliseconds(of: "10s") == 10_000)
    #expect(DurationValue.milliseconds(of: "1.5m") == 90_000)
    #expect(DurationValue.milliseconds(of: "2h") == 7_200_000)
    #expect(DurationValue.milliseconds(of: "1d") == 86_400_000)
    #expect(DurationValue.milliseconds(of: "10") == nil)
    #expect(DurationValue.milliseconds(of: "s") == nil)
    #expect(DurationValue.milliseconds(of: "-1s") == nil)
  }

  @Test func unquotedPasswordsAreMaskedToTheEndOfTheStatement() {
    for text in [
      "login email 'a@b.c' password hunter2secret",
      "login email 'a@b.c' password hunter2!x$y z; echo 'next'",
      "signup email a@b.c password 12345678",
    ] {
      let source = Source(text: text)
      let shown = SecretMask.text(of: SourceRange(start: 0, end: source.bytes.count), in: source)
      #expect(!shown.contains("hunter2") && !shown.contains("12345678"), "\(shown)")
      #expect(shown.contains("'********'"))
    }
    let next = Source(text: "login email 'a@b.c' password hunter2 z; echo 'next'")
    #expect(
      SecretMask.text(of: SourceRange(start: 0, end: next.bytes.count), in: next)
        == "login email 'a@b.c' password '********'; echo '********'")
    let variable = Source(text: "login email 'a@b.c' password $env.PW")
    #expect(
      SecretMask.text(of: SourceRange(start: 0, end: variable.bytes.count), in: variable)
        == "login email 'a@b.c' password $env.PW")
  }

  @Test func theParseErrorNeverQuotesAnUnquotedPassword() {
    let text = canonical("login email 'a@b.c' password hunter2secret")
    #expect(!text.contains("hunter2"))
    #expect(text.contains("found an unquoted password"))
  }
}
