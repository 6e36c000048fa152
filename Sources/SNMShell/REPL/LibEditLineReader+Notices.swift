@preconcurrency import CLibEdit
import Foundation
import Synchronization

/// Text that arrives while a line is edited (Realtime events): `el_gets` blocks the editor's
/// thread in its read, and only that thread may draw, so a notice is queued and the read woken
/// through a pipe; it clears the prompt and the line from the screen, prints the notices and has
/// libedit draw them again below, the cursor where it was (as readline's
/// `rl_clear_visible_line` and `rl_forced_update_display` do).
extension LibEditLineReader {
  public func printAboveLine(_ print: @escaping @Sendable () -> Void) {
    notices.withLock { state in
      // Output that is not the terminal the line is drawn on garbles nothing.
      guard state.editing, !writesToStandardError else { return print() }
      state.queued.append(print)
      var byte: UInt8 = 1
      // A full pipe already holds a wake-up.
      _ = write(wake.write, &byte, 1)
    }
  }

  /// The line is read: what was queued after the editor's last read prints now, below it.
  func finishEditing() {
    notices.withLock { state in
      state.editing = false
      drainWake()
      let queued = state.queued
      state.queued = []
      for print in queued { print() }
    }
  }

  /// libedit's read of one character (as its own: a byte at a time, decoded in the locale's
  /// encoding, an invalid byte skipped), which also wakes for notices between characters.
  /// Returns 1 with the character, 0 at the end of input, -1 on an error.
  func readCharacter(on line: OpaquePointer, into character: UnsafeMutablePointer<wchar_t>)
    -> Int32
  {
    character.pointee = 0
    if takeReplayedEscape() {
      character.pointee = 0x1B
      return 1
    }
    var bytes: [CChar] = []
    while true {
      if bytes.isEmpty && noticeBeforeKey() {
        showNotices(on: line)
        continue
      }
      var byte: CChar = 0
      let count = read(STDIN_FILENO, &byte, 1)
      if count < 0 {
        let code = errno
        if code == EINTR || code == EAGAIN { continue }
        // The terminal was taken from snm while it read (its parent or shell gave it to another
        // group): the kernel failed the read (EIO; snm's threads block SIGTTIN, which would
        // have stopped it), and snm ended, exit 2. It stops as a job reading from the
        // background does and reads on once in the front again, the line drawn again as it
        // was. Where no shell can bring it there (no job control) the read fails: `readLine`
        // says why.
        if code == EIO && JobStop.isInTheBackground(of: STDIN_FILENO)
          && JobStop.waitForTheForeground(of: STDIN_FILENO)
        {
          takeTheTerminalAgain(on: line)
          continue
        }
        return -1
      }
      if count == 0 { return 0 }
      bytes.append(byte)
      while !bytes.isEmpty {
        var state = mbstate_t()
        var wide: wchar_t = 0
        // size_t comes to Swift as Int: (size_t)-2 and (size_t)-1 are -2 and -1.
        let used = bytes.withUnsafeBufferPointer {
          Int(mbrtowc(&wide, $0.baseAddress, $0.count, &state))
        }
        if used == -2 {
          // An unfinished sequence: read on, up to the longest a character may be.
          guard bytes.count < 16 else {
            errno = EILSEQ
            return -1
          }
          break
        }
        if used == -1 {
          // Invalid: the bytes before the last go, the last may start a character.
          bytes = bytes.count > 1 ? [bytes[bytes.count - 1]] : []
          continue
        }
        character.pointee = wide
        noteEscapeEndingSearch(wide, on: line)
        // Ctrl-D (4) on an empty line leaves: nothing is wanted from the project then.
        if wide != 4, let onFirstKey, !firstKeyRead.exchange(true, ordering: .acquiringAndReleasing)
        {
          onFirstKey()
        }
        return 1
      }
    }
  }

  /// Waits for a key to read or a notice queued: true when a notice is there (it goes first).
  private func noticeBeforeKey() -> Bool {
    var fds = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      if ready > 0 && fds[1].revents != 0 { return true }
      // A failed poll leaves it to read to say why.
      if ready < 0 || fds[0].revents != 0 { return false }
    }
  }

  /// Clears the prompt and the line, prints what is queued, and has libedit draw them again
  /// (at the window's new width when it changed size meanwhile).
  private func showNotices(on line: OpaquePointer) {
    let queued = notices.withLock { state in
      drainWake()
      let queued = state.queued
      state.queued = []
      return queued
    }
    let resized = WindowResize.take()
    guard !queued.isEmpty || resized else { return }
    // The cursor's row counted from the prompt's first, as libedit drew the line at the width
    // it drew it in: where the terminal keeps its rows as they were on a resize (xterm, the
    // console), the prompt's first row is that many rows up. A terminal that wraps its lines
    // again (tmux, VTE) may keep rows of the old line above the new one, as it does bash's.
    let rows = cursorRow(on: line)
    if resized { el_resize(line) }
    // To the start of the prompt's first row, then erase down to the end of the screen.
    writeOutput("\r" + (rows > 0 ? "\u{1B}[\(rows)A" : "") + "\u{1B}[J")
    for print in queued { print() }
    _ = snm_el_refresh(line)
  }

  /// The row the cursor is on, counted from the prompt's first, as libedit laid them out.
  private func cursorRow(on line: OpaquePointer) -> Int {
    var layout = EditedLineLayout(columns: Int(snm_el_columns(line)))
    if let prompt = currentPrompt() { layout.add(prompt: String(cString: prompt)) }
    guard let info = el_wline(line)?.pointee, var next = info.buffer, let cursor = info.cursor
    else { return layout.row }
    while next < cursor {
      layout.add(next.pointee)
      next += 1
    }
    return layout.row
  }

  /// Empties the wake pipe (it is non-blocking).
  private func drainWake() {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(wake.read, &bytes, bytes.count) > 0 {}
  }
}

func libEditRead(_ line: OpaquePointer?, _ character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
  guard let line, let character, let reader = LibEditLineReader.owner(of: line) else { return -1 }
  return reader.readCharacter(on: line, into: character)
}
