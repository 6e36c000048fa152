@preconcurrency import CLibEdit
import Foundation
import Synchronization

/// A key whose escape sequence ends Ctrl-R's search (an arrow, Home, End, Alt-b): libedit's
/// search takes ESC as "end the search" and eats it, so the rest of the sequence was typed into the
/// line (`[D` for Left) instead of moving the cursor, as the key does in psql (readline). While
/// the search reads a key, an ESC with more of its key already waiting is handed to libedit twice:
/// the first ends the search, the second starts the key again. An ESC alone (nothing after it yet)
/// still only ends the search.
extension LibEditLineReader {
  /// Notes that the ESC just read (`character`) is to be read again, when it ends a search and
  /// begins a longer key.
  func noteEscapeEndingSearch(_ character: wchar_t, on line: OpaquePointer) {
    guard character == 0x1B, isSearching(on: line), Self.moreInputWaiting() else { return }
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

  /// Whether more of the terminal's input is there to read now (a key's sequence comes whole).
  private static func moreInputWaiting() -> Bool {
    var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&input, 1, 0) > 0 && input.revents & Int16(POLLIN) != 0
  }
}
