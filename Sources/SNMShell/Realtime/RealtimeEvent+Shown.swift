import SNMNetwork
import SNMWire

extension RealtimeEvent {
  /// The most of one event an error line shows (`expect event`'s "last events received").
  static let messageBytes = 1024
  /// The most of one event a failing file's trace (JUnit, TAP, `--verbose`) keeps.
  static let traceBytes = 64 << 10

  /// The event as compact JSON, members named like a secret masked and control characters
  /// escaped, cut at `limit` bytes (at a character's edge) with how many were left out: never cut
  /// silently.
  ///
  /// ```swift
  /// event.shown(limit: 1024)   // {"type":"INSERT","record":{"body":"aaa... (2096140 of 2097180 bytes left out)
  /// ```
  func shown(limit: Int) -> String {
    let text = VisibleText.escaped(SecretMembers.masked(value, answer: true).serialized())
    let total = text.utf8.count
    guard total > limit else { return text }
    var kept = 0
    var cut = text.unicodeScalars.startIndex
    for index in text.unicodeScalars.indices {
      let width = UTF8.width(text.unicodeScalars[index])
      if kept + width > limit { break }
      kept += width
      cut = text.unicodeScalars.index(after: index)
    }
    return String(text.unicodeScalars[..<cut])
      + "... (\(total - kept) of \(total) bytes left out)"
  }
}
