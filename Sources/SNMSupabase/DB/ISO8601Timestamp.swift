import Foundation

/// Dates as PostgREST filters and bodies take them: `2026-11-29T10:00:00.000Z` (UTC, milliseconds).
enum ISO8601Timestamp {
  static func string(from date: Date) -> String {
    let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let (days, dayMilliseconds) = floorDivide(totalMilliseconds, 86_400_000)
    let (year, month, day) = civil(fromDays: days)
    let hour = dayMilliseconds / 3_600_000
    let minute = dayMilliseconds / 60_000 % 60
    let second = dayMilliseconds / 1000 % 60
    let millisecond = dayMilliseconds % 1000
    return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":"
      + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let quotient = value >= 0 ? value / divisor : -((-value - 1) / divisor) - 1
    return (quotient, value - quotient * divisor)
  }

  /// Howard Hinnant's days-from-civil inverse: day 0 is 1970-01-01.
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
