@preconcurrency import CLibEdit
import Foundation
import Synchronization

extension LibEditLineReader {
  /// Reads keys with ``readCharacter(on:into:)``, which also prints what waits above the line.
  /// Emacs key bindings plus snm's own: Tab completes, Ctrl-C abandons the line, Ctrl-Z suspends
  /// snm as the terminal would (the line comes back on `fg`), Ctrl-\ quits it as the terminal
  /// would (SIGQUIT, as during a request and at psql's prompt), Ctrl-R searches the history
  /// backwards as you type. `~/.editrc` (or `$EDITRC`) may override them. The window
  /// size is read again at each line (libedit does that as a line starts) and when the window
  /// changes size while a line is typed (``WindowResize``: the line is drawn again at once).
  /// - Throws: `LineReaderError.noTerminal` when libedit refuses a setting.
  static func configure(line: OpaquePointer, entries: OpaquePointer, limit: Int) throws {
    let steps: [(String, Int32)] = [
      ("prompt", snm_el_set_prompt(line, libEditPrompt, 1)),
      ("editor", snm_el_set_editor(line, "emacs")),
      // libedit's own handlers pass every signal on to the whole process group (`kill(0, ...)`),
      // which under a shell without job control ends the parent too; snm's InterruptSignals
      // handles SIGINT and SIGTERM, and the terminal is handed back by `abandonLine`.
      ("signals", snm_el_set_signal(line, 0)),
      ("history size", snm_history_set_size(entries, Int32(clamping: limit))),
      ("history unique", snm_history_set_unique(entries, 1)),
      ("history", snm_el_set_history(line, entries)),
      ("interrupt key", snm_el_setty(line, "-d", "-isig")),
      ("read fn", snm_el_set_read(line, libEditRead)),
      ("complete fn", snm_el_addfn(line, "snm-complete", "complete the word", libEditComplete)),
      ("interrupt fn", snm_el_addfn(line, "snm-interrupt", "abandon the line", libEditInterrupt)),
      ("suspend fn", snm_el_addfn(line, "snm-suspend", "suspend snm", libEditSuspend)),
      ("quit fn", snm_el_addfn(line, "snm-quit", "quit snm (SIGQUIT)", libEditQuit)),
      ("bind tab", snm_el_bind(line, "^I", "snm-complete")),
      ("bind ^C", snm_el_bind(line, "^C", "snm-interrupt")),
      ("bind ^Z", snm_el_bind(line, "^Z", "snm-suspend")),
      ("bind ^\\", snm_el_bind(line, "^\\", "snm-quit")),
      ("bind ^R", snm_el_bind(line, "^R", "em-inc-search-prev")),
    ]
    if let failed = steps.first(where: { $0.1 < 0 }) {
      throw LineReaderError.setupFailed(failed.0)
    }
    // A missing ~/.editrc is the common case, not an error.
    _ = el_source(line, nil)
  }

  /// The reader that owns `line`, from libedit's client data.
  static func owner(of line: OpaquePointer) -> LibEditLineReader? {
    guard let data = snm_el_get_clientdata(line) else { return nil }
    return Unmanaged<LibEditLineReader>.fromOpaque(data).takeUnretainedValue()
  }

  /// Runs Tab: asks the completer about the statement so far and edits the line.
  func complete(on line: OpaquePointer) -> UInt8 {
    guard let completer, let info = el_line(line)?.pointee, let start = info.buffer,
      let cursor = info.cursor
    else { return UInt8(CC_REFRESH_BEEP) }
    let bytes = UnsafeRawBufferPointer(start: start, count: cursor - start)
    let current = String(decoding: bytes, as: UTF8.self)
    let pending = pendingStatement()
    let result = completer.complete(pending.isEmpty ? current : pending + "\n" + current)
    guard current.hasSuffix(result.word) else { return UInt8(CC_REFRESH_BEEP) }
    switch CompletionAction(result) {
    case .beep:
      return UInt8(CC_REFRESH_BEEP)
    case .replace(let text):
      el_deletestr(line, Int32(result.word.unicodeScalars.count))
      guard el_insertstr(line, text) == 0 else { return UInt8(CC_REFRESH_BEEP) }
      return UInt8(CC_REFRESH)
    case .list(let candidates):
      writeOutput("\n" + CompletionListing.render(candidates, width: Terminal.columns()))
      return UInt8(CC_REDISPLAY)
    }
  }

  /// Runs Ctrl-C: shows `^C` at the end of the line, then ends the line as abandoned.
  func interrupt(on line: OpaquePointer) -> UInt8 {
    interruptPressed.store(true, ordering: .releasing)
    if let info = el_wline(line)?.pointee, let cursor = info.cursor, let last = info.lastchar {
      _ = el_cursor(line, Int32(clamping: last - cursor))
    }
    _ = el_insertstr(line, "^C")
    el_push(line, "\n")
    return UInt8(CC_REFRESH)
  }

  /// Runs Ctrl-\: with `-isig` the terminal sends no SIGQUIT while libedit reads (the key did
  /// nothing at the prompt, while it quit snm during a request and at the password prompt), so
  /// snm hands the terminal back and quits as the terminal would have, as psql does at its
  /// prompt: exit 131, the line typed not run.
  func quit(on line: OpaquePointer) -> Never {
    _ = snm_el_prep_term(line, 0)
    writeOutput("^\\\n")
    JobStop.quitAsTheTerminalWould()
  }

  /// Runs Ctrl-Z: with `-isig` the terminal sends no SIGTSTP while libedit reads, so snm stops its
  /// process group as the terminal would have (a parent `sh -c` in the same job stops too, or its
  /// shell would wait on it forever), in the terminal's own mode, and takes the line up again once
  /// continued. The signal reaches another thread, which stops the process a moment later; this
  /// one waits for the SIGCONT that follows, up to half a second: where no shell has job control
  /// the group is orphaned and the kernel drops the signal, and the prompt simply goes on.
  /// The line is drawn again where the cursor is (below what the shell printed meanwhile), at the
  /// window's width now: it may have changed size while snm was stopped. Continued in the
  /// background (`bg`), snm waits, stopped again, until `fg`: setting the terminal raw and drawing
  /// from there put the line on the shell's prompt, and the read that failed ended snm.
  func suspend(on line: OpaquePointer) -> UInt8 {
    _ = snm_el_prep_term(line, 0)
    writeOutput("^Z\n")
    JobStop.stopAsTheTerminalWould()
    // Without job control the terminal is no longer snm's: the read fails and says so.
    guard JobStop.waitForTheForeground(of: STDIN_FILENO) else { return UInt8(CC_NORM) }
    takeTheTerminalAgain(on: line)
    return UInt8(CC_NORM)
  }

  /// Once snm is in the front of its terminal again (`fg`): the terminal raw again (in the mode
  /// the shell left it in: libedit takes its settings afresh), the line drawn again where the
  /// cursor is, at the window's width now (it may have changed size while snm was stopped).
  func takeTheTerminalAgain(on line: OpaquePointer) {
    // libedit sets the terminal raw only from its own cooked mode; after Ctrl-Z it is there
    // already, after a read that failed in the background it is not.
    _ = snm_el_prep_term(line, 0)
    _ = snm_el_prep_term(line, 1)
    // Asked of the terminal whether or not SIGWINCH has been handled yet (it may come after
    // SIGCONT); one handled later only draws the line again, at the same width.
    _ = WindowResize.take()
    el_resize(line)
    // Not CC_REDISPLAY: libedit would first erase as many rows above as the line had had, where
    // the shell's lines are now (the job's command that `fg` printed).
    _ = snm_el_refresh(line)
  }
}

private func libEditQuit(_ line: OpaquePointer?, _ key: Int32) -> UInt8 {
  guard let line, let reader = LibEditLineReader.owner(of: line) else {
    return UInt8(CC_ERROR)
  }
  reader.quit(on: line)
}

private func libEditPrompt(_ line: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
  guard let line, let reader = LibEditLineReader.owner(of: line) else { return nil }
  return reader.currentPrompt()
}

private func libEditComplete(_ line: OpaquePointer?, _ key: Int32) -> UInt8 {
  guard let line, let reader = LibEditLineReader.owner(of: line) else {
    return UInt8(CC_ERROR)
  }
  return reader.complete(on: line)
}

private func libEditInterrupt(_ line: OpaquePointer?, _ key: Int32) -> UInt8 {
  guard let line, let reader = LibEditLineReader.owner(of: line) else {
    return UInt8(CC_ERROR)
  }
  return reader.interrupt(on: line)
}

/// Set by SIGCONT while `suspend` waits.

private func libEditSuspend(_ line: OpaquePointer?, _ key: Int32) -> UInt8 {
  guard let line, let reader = LibEditLineReader.owner(of: line) else {
    return UInt8(CC_ERROR)
  }
  return reader.suspend(on: line)
}
