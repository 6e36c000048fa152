import Foundation
import SNMWire

/// Dates as PostgREST filters and bodies take them: `2026-11-29T10:00:00.000Z` (UTC, milliseconds).
enum ISO8601Timestamp {
  static func string(from date: Date) -> String {
    let totalMilliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
    let (days, dayMilliseconds) = CivilDay.floorDivision(totalMilliseconds, 86_400_000)
    let (year, month, day) = CivilDay.civil(days)
    let hour = dayMilliseconds / 3_600_000
    let minute = dayMilliseconds / 60_000 % 60
    let second = dayMilliseconds / 1000 % 60
    let millisecond = dayMilliseconds % 1000
    return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":"
      + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
