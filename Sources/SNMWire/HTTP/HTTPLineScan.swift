/// How far ``HTTPDecoder``'s search for the end of the line or head under way got, so that each
/// byte received is examined once however the bytes arrive. Searching again from the first unread
/// byte at every read made a line or head sent a byte at a time cost its length squared (a 32 KiB
/// trailer, on a connection anyone with the anon key may open, many times over).
///
/// The indices are the decoder's buffer's. The state is the current search's while `next` is past
/// the decoder's `position`; at or before it (a line or head was taken, a body read) a new search
/// starts.
struct HTTPLineScan: Sendable {
  /// Where the search resumes: no byte before it is looked at again.
  var next = 0
  /// Where the line under way starts (the head's search).
  var lineStart = 0
  /// The head's first LF, once found: where its start line ends.
  var firstLineEnd: Int?
  /// Whether the head has a line that is not empty yet (a request's leading empty lines are not).
  var sawContent = false
  /// The bytes up to `trimChecked` with their trailing CRs and LFs left off end here.
  var trimmedEnd = 0
  /// How far `trimmedEnd` was worked out.
  var trimChecked = 0
  /// The bytes examined so far by the searches (tests check it grows with the bytes received, not
  /// their square).
  var examined = 0

  /// A new search from `position`.
  mutating func restart(at position: Int, sawContent: Bool) {
    next = position
    lineStart = position
    firstLineEnd = nil
    self.sawContent = sawContent
    trimmedEnd = position
    trimChecked = position
  }

  /// The buffer lost its first `count` bytes: the indices move with the bytes.
  mutating func shift(by count: Int) {
    next = max(0, next - count)
    lineStart = max(0, lineStart - count)
    firstLineEnd = firstLineEnd.map { max(0, $0 - count) }
    trimmedEnd = max(0, trimmedEnd - count)
    trimChecked = max(0, trimChecked - count)
  }
}

extension HTTPDecoder {
  /// Where the search for the end of the line or head under way resumes (a new search starts at
  /// `position` when the last one ended).
  mutating func resumeScan() -> Int {
    if scan.next <= position { scan.restart(at: position, sawContent: reading == .responses) }
    return scan.next
  }

  /// The end of `buffer[position..<limit]` without its trailing CRs and LFs, worked out on the
  /// bytes not yet checked only (a request's leading empty lines, sent a byte at a time, were
  /// walked back over at every read).
  mutating func endWithoutLineEnds(upTo limit: Int) -> Int {
    if scan.trimChecked < position || scan.trimChecked > limit {
      scan.trimmedEnd = position
      scan.trimChecked = position
    }
    var end = limit
    while end > scan.trimChecked, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
    scan.examined += limit - end
    if end > scan.trimChecked { scan.trimmedEnd = end }
    scan.trimChecked = limit
    return scan.trimmedEnd
  }
}
