import SNMWire
import Testing

/// The one calendar HTTP dates and PostgREST timestamps count on.
@Suite struct CivilDayTests {
  @Test func knownDaysAreTheirDates() {
    let known: [(days: Int, date: (Int, Int, Int))] = [
      (0, (1970, 1, 1)), (-1, (1969, 12, 31)), (11_016, (2000, 2, 29)), (-25_508, (1900, 3, 1)),
      (20_793, (2026, 12, 6)), (-719_162, (1, 1, 1)),
    ]
    for (days, date) in known {
      #expect(CivilDay.civil(days) == date, "\(days)")
      #expect(CivilDay.daysSince1970(year: date.0, month: date.1, day: date.2) == days)
    }
    #expect(CivilDay.weekday(0) == 4, "1970-01-01 was a Thursday")
    #expect(CivilDay.weekday(-1) == 3)
  }

  @Test func everyDayGoesThereAndBack() {
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      let (year, month, day) = CivilDay.civil(days)
      #expect(
        (1...12).contains(month) && day >= 1 && day <= CivilDay.daysIn(month: month, year: year))
      #expect(CivilDay.daysSince1970(year: year, month: month, day: day) == days)
    }
  }
}
