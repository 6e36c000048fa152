import Testing

@testable import SNMWire

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate written and read, RFC 850 and asctime read, each
/// at its fixed width and case; a date that does not exist or names the wrong day is none.
@Suite struct HTTPDateTests {
  /// Friday 4 December 2026, 09:01:01 UTC: where RFC 850's two-digit years are read from.
  static let now = 1_796_374_861

  @Test(arguments: [
    (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
    (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
    (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
    (1_796_374_861, "Fri, 04 Dec 2026 09:01:01 GMT"),
    (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    (-11_670_912_000, "Wed, 01 Mar 1600 00:00:00 GMT"),
    (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
  ])
  func imfFixdatesAreWrittenAndRead(seconds: Int, text: String) {
    #expect(HTTPDate.format(seconds) == text)
    #expect(HTTPDate.parse(text) == seconds)
  }

  @Test(arguments: [
    ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),  // 2094 is more than 50 years ahead
    ("Friday, 04-Mar-77 05:06:07 GMT", 226_299_967),
    ("Wednesday, 01-Jan-70 00:00:00 GMT", 3_155_760_000),  // 2070: within 50 years
    ("Friday, 04-Dec-26 09:01:01 GMT", 1_796_374_861),
  ])
  func rfc850DatesTakeTheCenturyRFC9110Says(text: String, seconds: Int) {
    #expect(HTTPDate.parse(text, now: Self.now) == seconds)
  }

  @Test func rfc850YearsMoveWithTheClock() {
    let in2090 = 3_799_958_400  // 1 June 2090
    #expect(HTTPDate.parse("Sunday, 15-Jun-10 12:00:00 GMT", now: in2090) == 4_432_276_800)
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: in2090) == nil, "2094: Saturday")
    #expect(HTTPDate.parse("Friday, 04-Mar-77 05:06:07 GMT", now: in2090) == nil, "2077: Thursday")
  }

  @Test(arguments: [
    ("Sun Nov  6 08:49:37 1994", 784_111_777),
    ("Sun Nov 06 08:49:37 1994", 784_111_777),
    ("Tue Feb 29 00:00:00 2000", 951_782_400),
    ("Thu Jan  1 00:00:00 1970", 0),
  ])
  func asctimeDatesAreRead(text: String, seconds: Int) {
    #expect(HTTPDate.parse(text) == seconds)
  }

  @Test func aLeapSecondIsTheNextSecond() {
    #expect(HTTPDate.parse("Wed, 31 Dec 2008 23:59:60 GMT") == 1_230_768_000)
    #expect(HTTPDate.parse("Wed, 31 Dec 2008 23:58:60 GMT") == nil)
  }

  @Test(arguments: [
    "", "yesterday", "0", "Thu, 01 Jan 1970 00:00:00 UTC", "Thu, 01 Foo 1970 00:00:00 GMT",
    "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06 Nov 1994 08:49:37 gmt",
    "SUN, 06 NOV 1994 08:49:37 GMT",
    "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
    " Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ",
    "Sun, 06 Nov 1994 08:49:37 GMT\u{0}", "Sun, 06 Nov 1994 8:49:37 GMT",
    "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 +0000",
    "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
    "Mon, 06 Nov 1994 08:49:37 GMT",  // the 6th was a Sunday
    "Thu, 31 Apr 2026 00:00:00 GMT", "Mon, 29 Feb 2100 00:00:00 GMT",
    "Thu, 00 Jan 1970 00:00:00 GMT",
    "Thu, 01 Jan 1970 24:00:00 GMT", "Thu, 01 Jan 1970 00:60:00 GMT",
    "Thu, 01 Jan 1970 00:00:61 GMT",
    "Thu, 01 Jan 1970 00:00:00 GMT, Thu, 01 Jan 1970 00:00:00 GMT", "Thu, 01 Jan +970 00:00:00 GMT",
    "Thu, ０1 Jan 1970 00:00:00 GMT",
    "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sunday, 6-Nov-94 08:49:37 GMT",
    "Sunday, 06-Nov-94 08:49:37 UTC", "Monday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov 6 08:49:37 1994", "Sun Nov   6 08:49:37 1994", "Sun Nov  06 08:49:37 1994",
    "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT", "Sunday Nov  6 08:49:37 1994",
    "Mon Nov  6 08:49:37 1994",
  ])
  func otherTextIsNone(text: String) {
    #expect(HTTPDate.parse(text, now: Self.now) == nil)
  }
}
