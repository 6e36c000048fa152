#if canImport(Glibc)
  import Glibc
#endif

/// HTTP dates (RFC 9110 §5.6.7), in seconds since 1970 (UTC): written as IMF-fixdate, read in all
/// three forms a recipient must take, case-sensitively and at their fixed widths:
///
/// ```
/// Sun, 06 Nov 1994 08:49:37 GMT    IMF-fixdate (what `format` writes)
/// Sunday, 06-Nov-94 08:49:37 GMT   RFC 850 (obsolete; a two-digit year)
/// Sun Nov  6 08:49:37 1994         asctime (obsolete; the day space-padded or two digits)
/// ```
///
/// A date that does not exist (`31 Apr`, `25:00:00`) or whose day name is not its date's (RFC
/// 5322 §3.3) is none. Arithmetic on the proleptic Gregorian calendar, no locale or formatter:
/// the gateway writes a `Date` a second and reads `If-Modified-Since`, the client reads a 429's
/// `Retry-After`.
public enum HTTPDate {
  /// Day names from Sunday, as IMF-fixdate and asctime write them.
  static let shortDays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  /// Day names from Sunday, as RFC 850 writes them.
  static let longDays = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `seconds` since 1970 as an IMF-fixdate (`Tue, 01 Dec 2026 09:00:00 GMT`).
  public static func format(_ seconds: Int) -> String {
    let (days, time) = CivilDay.floorDivision(seconds, 86_400)
    let (year, month, day) = CivilDay.civil(days)
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    let yearText = String(year)
    return "\(shortDays[CivilDay.weekday(days)]), \(two(day)) \(months[month - 1]) "
      + String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
      + " \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
  }

  /// The seconds since 1970 an HTTP date in any of its three forms stands for; nil for other
  /// text. `now` (seconds since 1970; the clock's when nil) places RFC 850's two-digit year: in
  /// the century that puts the date no more than 50 years after `now` and within 100 years
  /// before it (RFC 9110: a date that appears more than 50 years ahead is the most recent past
  /// year with those digits).
  public static func parse(_ text: some StringProtocol, now: Int? = nil) -> Int? {
    let bytes = Array(text.utf8)
    if let fields = imfFixdate(bytes) ?? asctime(bytes) {
      return seconds(fields)
    }
    guard var fields = rfc850(bytes) else { return nil }
    let now = now ?? Int(time(nil))
    let latest = now + 50 * 31_556_952  // 50 years of 365.2425 days
    let (today, _) = CivilDay.floorDivision(now, 86_400)
    fields.year += CivilDay.civil(today).year / 100 * 100
    func at(_ year: Int) -> Int {
      var shifted = fields
      shifted.year = year
      return timestamp(shifted)
    }
    if at(fields.year) > latest {
      fields.year -= 100
    } else if at(fields.year + 100) <= latest {
      fields.year += 100
    }
    return seconds(fields)
  }

  /// A date's fields as written: the day name's index from Sunday, the month from 1.
  struct Fields {
    var dayName: Int
    var day: Int
    var month: Int
    var year: Int
    var hour: Int
    var minute: Int
    var second: Int
  }

  /// `Sun, 06 Nov 1994 08:49:37 GMT`.
  static func imfFixdate(_ bytes: [UInt8]) -> Fields? {
    namedDate(bytes, days: shortDays, separator: " ", yearDigits: 4)
  }

  /// `Sunday, 06-Nov-94 08:49:37 GMT`; the year as written (two digits).
  static func rfc850(_ bytes: [UInt8]) -> Fields? {
    namedDate(bytes, days: longDays, separator: "-", yearDigits: 2)
  }

  /// The two forms that start with the day's name and a comma: `DAY, DD<sep>MON<sep>YEAR
  /// HH:MM:SS GMT`.
  static func namedDate(
    _ bytes: [UInt8], days: [String], separator: StaticString, yearDigits: Int
  ) -> Fields? {
    var scan = DateScan(bytes: bytes)
    guard let dayName = scan.name(days), scan.take(", "), let day = scan.digits(2),
      scan.take(separator), let month = scan.name(months), scan.take(separator),
      let year = scan.digits(yearDigits), scan.take(" "), let clock = scan.timeOfDay(),
      scan.take(" GMT"), scan.atEnd
    else { return nil }
    return Fields(
      dayName: dayName, day: day, month: month + 1, year: year, hour: clock.hour,
      minute: clock.minute, second: clock.second)
  }

  /// `Sun Nov  6 08:49:37 1994` (or `Nov 06`).
  static func asctime(_ bytes: [UInt8]) -> Fields? {
    var scan = DateScan(bytes: bytes)
    guard let dayName = scan.name(shortDays), scan.take(" "), let month = scan.name(months),
      scan.take(" ")
    else { return nil }
    let day: Int
    if scan.take(" "), let digit = scan.digits(1) {
      day = digit
    } else if let digits = scan.digits(2) {
      day = digits
    } else {
      return nil
    }
    guard scan.take(" "), let clock = scan.timeOfDay(), scan.take(" "),
      let year = scan.digits(4), scan.atEnd
    else { return nil }
    return Fields(
      dayName: dayName, day: day, month: month + 1, year: year, hour: clock.hour,
      minute: clock.minute, second: clock.second)
  }

  /// The seconds the fields stand for, when they name a real date whose day name is right.
  static func seconds(_ fields: Fields) -> Int? {
    guard (1...12).contains(fields.month), fields.day >= 1,
      fields.day <= CivilDay.daysIn(month: fields.month, year: fields.year),
      fields.hour <= 23, fields.minute <= 59,
      fields.second <= 59 || (fields.second == 60 && fields.hour == 23 && fields.minute == 59)
    else { return nil }
    let days = CivilDay.daysSince1970(year: fields.year, month: fields.month, day: fields.day)
    guard CivilDay.weekday(days) == fields.dayName else { return nil }
    return timestamp(fields)
  }

  /// The fields' seconds since 1970, unchecked (a leap second counts as the next second).
  static func timestamp(_ fields: Fields) -> Int {
    CivilDay.daysSince1970(year: fields.year, month: fields.month, day: fields.day) * 86_400
      + fields.hour * 3600 + fields.minute * 60 + fields.second
  }
}

/// Reads an HTTP date's parts left to right, each at its fixed width.
struct DateScan {
  let bytes: [UInt8]
  var at = 0

  var atEnd: Bool { at == bytes.count }

  /// Takes `literal` when the text goes on with it, exactly.
  mutating func take(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - at >= count else { return false }
    let matches = literal.withUTF8Buffer { literal in
      literal.indices.allSatisfy { bytes[at + $0] == literal[$0] }
    }
    if matches { at += count }
    return matches
  }

  /// Exactly `count` ASCII digits.
  mutating func digits(_ count: Int) -> Int? {
    guard bytes.count - at >= count else { return nil }
    var value = 0
    for byte in bytes[at..<at + count] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    at += count
    return value
  }

  /// The index of the name the text goes on with (case-sensitive; the longest when one is
  /// another's start).
  mutating func name(_ names: [String]) -> Int? {
    var found: (index: Int, count: Int)?
    for (index, name) in names.enumerated() {
      let utf8 = name.utf8
      guard bytes.count - at >= utf8.count, bytes[at..<at + utf8.count].elementsEqual(utf8)
      else { continue }
      if utf8.count > found?.count ?? 0 { found = (index, utf8.count) }
    }
    guard let found else { return nil }
    at += found.count
    return found.index
  }

  /// `HH:MM:SS`, unchecked.
  mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
    guard let hour = digits(2), take(":"), let minute = digits(2), take(":"),
      let second = digits(2)
    else { return nil }
    return (hour, minute, second)
  }
}
