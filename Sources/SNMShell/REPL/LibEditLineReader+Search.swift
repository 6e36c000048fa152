@preconcurrency import CLibEdit
import Foundation
import Synchronization

/// A key whose escape sequence ends Ctrl-R's search (an arrow, Home, End, Alt-b): libedit's
/// search takes ESC as "end the search" and eats it, so the rest of the sequence was typed into the
/// line (`[D` for Left) instead of moving the cursor, as the key does in psql (readline). While
/// the search reads a key, an ESC with more of its key coming within ``escapeWait`` is handed to
/// libedit twice: the first ends the search, the second starts the key again. An ESC alone (nothing
/// after it meanwhile) still only ends the search.
extension LibEditLineReader {
  /// How long an ESC that ends a search waits for the rest of its key: readline's keyboard input
  /// timeout (0.1 s), which psql's search waits as well. libedit's search has none (ESC ends it,
  /// whatever follows), and snm looked only at what was there already: over a slow link (ssh)
  /// a key's ESC came in one read and its `[C` in a later one, typed into the line.
  static let escapeWait = Duration.milliseconds(100)

  /// Notes that the ESC just read (`character`) is to be read again, when it ends a search and
  /// begins a longer key.
  func noteEscapeEndingSearch(_ character: wchar_t, on line: OpaquePointer) {
    guard character == 0x1B, isSearching(on: line), Self.moreInputComing() else { return }
    replayEscape.store(true, ordering: .releasing)
  }

  /// The ESC to hand libedit again, once: true when it was due.
  func takeReplayedEscape() -> Bool {
    replayEscape.exchange(false, ordering: .acquiringAndReleasing)
  }

  /// Whether libedit's incremental search is reading a key: it shows its prompt by adding a row
  /// to the line, past the text (a newline, `bck` or `fwd`, `:` or `?` when nothing matches, and
  /// the pattern), the cursor on the text's match.
  func isSearching(on line: OpaquePointer) -> Bool {
    guard let info = el_wline(line)?.pointee, let start = info.buffer,
      let cursor = info.cursor, let last = info.lastchar, last > start
    else { return false }
    var newline = last
    repeat { newline -= 1 } while newline > start && newline.pointee != 0x0A
    guard newline.pointee == 0x0A, cursor <= newline, last - newline >= 5 else { return false }
    let name = [newline[1], newline[2], newline[3]]
    let mark = newline[4]
    return (name == Self.backwards || name == Self.forwards) && (mark == 0x3A || mark == 0x3F)
  }

  /// `bck` and `fwd`, as libedit names the search's direction.
  private static let backwards: [wchar_t] = [0x62, 0x63, 0x6B]
  private static let forwards: [wchar_t] = [0x66, 0x77, 0x64]

  /// Whether more of the terminal's input is there to read within ``escapeWait``.
  private static func moreInputComing() -> Bool {
    var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    let deadline = ContinuousClock.now + escapeWait
    while true {
      let left = max(.zero, deadline - ContinuousClock.now)
      let ready = poll(&input, 1, Int32((left / .milliseconds(1)).rounded(.up)))
      if ready < 0 && errno == EINTR { continue }
      return ready > 0 && input.revents & Int16(POLLIN) != 0
    }
  }
}
