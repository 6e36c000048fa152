/// Days counted from 1970-01-01 (UTC) on the proleptic Gregorian calendar, by plain arithmetic
/// (no locale, no formatter): HTTP dates (``HTTPDate``) and the ISO 8601 timestamps snm sends
/// PostgREST count on it.
///
/// ```swift
/// CivilDay.civil(20_793)                                   // (2026, 12, 6)
/// CivilDay.daysSince1970(year: 2026, month: 12, day: 6)    // 20,793
/// ```
public enum CivilDay {
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The day of the week, from Sunday, of a day counted from 1970-01-01 (a Thursday).
  public static func weekday(_ days: Int) -> Int {
    floorDivision(days + 4, 7).remainder
  }

  public static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int)
  {
    let remainder = (value % divisor + divisor) % divisor
    return ((value - remainder) / divisor, remainder)
  }

  /// Days from 1970-01-01 to a date. The year is counted from March, so a leap day is the last
  /// day of its year, and in eras of 400 years (146,097 days, all alike).
  public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let marchYear = month <= 2 ? year - 1 : year
    let (era, yearOfEra) = floorDivision(marchYear, 400)
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468  // 719,468: 0000-03-01 to 1970-01-01
  }

  /// The date of a day counted from 1970-01-01 (the inverse of `daysSince1970`).
  public static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let (era, dayOfEra) = floorDivision(days + 719_468, 146_097)
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}
