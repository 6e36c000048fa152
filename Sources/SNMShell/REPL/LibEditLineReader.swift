@preconcurrency import CLibEdit
import Foundation
import Synchronization

/// The prompt at a terminal: libedit line editing, history, Ctrl-R search and Tab completion.
///
/// ```swift
/// let reader = try LibEditLineReader(history: HistoryFile(path: HistoryFile.defaultPath()),
///                                    completer: completion)
/// switch reader.readLine(prompt: "snm anon@local> ") { ... }
/// ```
/// Ctrl-C abandons the line (`.interrupted`), Ctrl-D on an empty line leaves (`.end`). While a line
/// is edited the terminal's interrupt key is read as a key, not a signal, so Ctrl-C at the prompt
/// never depends on which thread a signal lands on.
/// Throws `LineReaderError.noTerminal` when libedit cannot set up the terminal.
public final class LibEditLineReader: LineReader {
  /// The libedit handles; every use holds the lock, so one line is edited at a time.
  private let editor: Mutex<Editor>
  /// The current prompt as a C string owned by this reader, as an address (read by libedit's callback).
  private let promptAddress = Atomic<UInt>(0)
  /// Set by the Ctrl-C key binding while `el_gets` runs.
  let interruptPressed = Atomic<Bool>(false)
  /// Set when an ESC that ended Ctrl-R's search is to be read again (``noteEscapeEndingSearch``).
  let replayEscape = Atomic<Bool>(false)
  /// The unfinished statement from earlier lines, for completion.
  private let pending = Mutex("")
  let completer: (any LineCompleter)?
  /// Runs once, on the editor's thread, when the first key other than Ctrl-D is read.
  let onFirstKey: (@Sendable () -> Void)?
  /// Set once `onFirstKey` ran.
  let firstKeyRead = Atomic<Bool>(false)
  let historyFile: HistoryFile?
  /// Set once a failure to save history was reported: one warning per process.
  let historyWarned = Atomic<Bool>(false)
  /// Whether the editor writes to standard error (standard output is not a terminal).
  let writesToStandardError: Bool
  /// The terminal's settings before the line being edited (libedit switches it to raw mode), so
  /// `abandonLine` can restore them while `el_gets` still waits.
  private let settingsBeforeLine = Mutex<termios?>(nil)
  /// What prints above the line while `el_gets` waits (``printAboveLine(_:)``).
  let notices = Mutex(Notices())
  /// The pipe that wakes the editor's read when a notice is queued: read end, write end.
  let wake: (read: Int32, write: Int32)

  /// Whether a line is being edited, and what waits to print above it meanwhile.
  struct Notices {
    var editing = false
    var queued: [@Sendable () -> Void] = []
  }

  struct Editor: ~Copyable {
    let line: OpaquePointer
    let entries: OpaquePointer
  }

  /// A reader at this process's terminal.
  /// - Parameters:
  ///   - history: where statements are loaded from and appended to; nil keeps history in memory.
  ///   - completer: answers Tab; nil leaves Tab inserting nothing.
  ///   - onFirstKey: runs when the first key other than Ctrl-D is typed (the shell starts loading
  ///     the project's names then: a session left at once never loads them).
  /// - Throws: `LineReaderError.noTerminal` when libedit cannot be initialised.
  public init(
    history: HistoryFile?, completer: (any LineCompleter)?,
    onFirstKey: (@Sendable () -> Void)? = nil
  ) throws {
    Self.prepareLocale()
    // el_init sets the terminal's modes at once (libedit's tty_setup). From the background
    // (`snm &`; snm's threads block SIGTTOU, so the kernel lets it) that turned echo and line
    // mode back on under the foreground shell's own editor, which then showed the `fg` typed
    // next twice. snm waits, stopped as psql's readline stops, until it has the terminal.
    guard JobStop.waitForTheForeground(of: STDIN_FILENO) else {
      throw LineReaderError.inTheBackground
    }
    let toStandardError = isatty(STDOUT_FILENO) == 0
    var ends: [Int32] = [-1, -1]
    guard snm_wake_pipe(&ends) == 0 else {
      throw LineReaderError.setupFailed("wake pipe (\(String(cString: strerror(errno))))")
    }
    guard
      let line = el_init(
        "snm", snm_stdin(), toStandardError ? snm_stderr() : snm_stdout(), snm_stderr()),
      let entries = history_init()
    else {
      close(ends[0])
      close(ends[1])
      throw LineReaderError.noTerminal
    }
    do {
      try Self.configure(line: line, entries: entries, limit: history?.limit ?? 1000)
    } catch {
      el_end(line)
      history_end(entries)
      close(ends[0])
      close(ends[1])
      throw error
    }
    self.wake = (ends[0], ends[1])
    WindowResize.install(waking: ends[1])
    for entry in history?.load() ?? [] { _ = snm_history_enter(entries, entry) }
    self.editor = Mutex(Editor(line: line, entries: entries))
    self.historyFile = history
    self.completer = completer
    self.onFirstKey = onFirstKey
    self.writesToStandardError = toStandardError
    // libedit hands this address back to the callbacks; the reader outlives its editor.
    let owner = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
    try editor.withLock { editor in
      guard snm_el_set_clientdata(editor.line, UnsafeMutableRawPointer(bitPattern: owner)) == 0
      else {
        throw LineReaderError.setupFailed("client data")
      }
    }
  }

  deinit {
    WindowResize.stopWaking(wake.write)
    editor.withLock { editor in
      el_end(editor.line)
      history_end(editor.entries)
    }
    close(wake.read)
    close(wake.write)
    if let old = UnsafeMutablePointer<CChar>(bitPattern: promptAddress.load(ordering: .acquiring)) {
      free(old)
    }
  }

  public var isInteractive: Bool { true }

  public func readLine(prompt: String, pending: String) -> LineInput {
    // `snm &` waits, stopped, until `fg` (libedit set the foreground's terminal raw, its read
    // failed, and snm ended as at Ctrl-D with exit 0); without job control it cannot be read.
    guard JobStop.waitForTheForeground(of: STDIN_FILENO) else {
      return .unreadable(.inTheBackground("-"))
    }
    setPrompt(prompt)
    self.pending.withLock { $0 = pending }
    var settings = termios()
    if tcgetattr(STDIN_FILENO, &settings) == 0 {
      settingsBeforeLine.withLock { $0 = settings }
    }
    notices.withLock { $0.editing = true }
    let input: LineInput = editor.withLock { editor in
      interruptPressed.store(false, ordering: .releasing)
      // el_gets reads the window's size as the line starts: a resize while the last statement's
      // output printed is taken there.
      _ = WindowResize.take()
      // The terminal goes raw before el_gets prints the prompt: libedit prints it first and only
      // then leaves cooked mode, so a key typed in between (Ctrl-D right after the prompt shows)
      // went through the cooked line discipline and was lost.
      _ = snm_el_prep_term(editor.line, 1)
      var count: Int32 = 0
      let raw = el_gets(editor.line, &count)
      if interruptPressed.exchange(false, ordering: .acquiringAndReleasing) {
        return .interrupted
      }
      guard let raw, count > 0 else {
        // The terminal was taken from snm while it read, and no shell can bring snm to the front
        // again (Ctrl-Z, then its shell gone; ``readCharacter(on:into:)`` waited for one): the
        // read failed (EIO), it is no end of input.
        if JobStop.isInTheBackground(of: STDIN_FILENO) {
          return .unreadable(.inTheBackground("-"))
        }
        writeOutput("\n")
        return .end
      }
      var text = String(cString: raw)
      while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
      return .line(text)
    }
    finishEditing()
    return input
  }

  public func abandonLine() {
    guard var settings = settingsBeforeLine.withLock({ $0 }) else { return }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    writeOutput("\n")
  }

  public func remember(_ statement: String) {
    guard HistoryPolicy.mayRecord(statement) else { return }
    let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
    editor.withLock { editor in _ = snm_history_enter(editor.entries, trimmed) }
    if let problem = historyFile?.append(trimmed),
      !historyWarned.exchange(true, ordering: .acquiringAndReleasing)
    {
      fputs("snm: warning: history not saved: \(problem)\n", snm_stderr())
      fflush(snm_stderr())
    }
  }

  /// The unfinished statement typed on earlier lines.
  func pendingStatement() -> String {
    pending.withLock { $0 }
  }

  /// The prompt string libedit draws; valid until the next `setPrompt`.
  func currentPrompt() -> UnsafeMutablePointer<CChar>? {
    UnsafeMutablePointer(bitPattern: promptAddress.load(ordering: .acquiring))
  }

  private func setPrompt(_ prompt: String) {
    guard let copy = strdup(prompt) else { return }
    let old = promptAddress.exchange(UInt(bitPattern: copy), ordering: .acquiringAndReleasing)
    if let old = UnsafeMutablePointer<CChar>(bitPattern: old) { free(old) }
  }

  /// Writes `text` where the editor draws, flushing at once.
  func writeOutput(_ text: String) {
    let stream = writesToStandardError ? snm_stderr() : snm_stdout()
    fputs(text, stream)
    fflush(stream)
  }

  /// libedit needs a UTF-8 `LC_CTYPE` to edit Korean text and emoji as characters.
  static func prepareLocale() {
    let current = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
    if current == "C" || current == "POSIX" {
      _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
  }
}

/// Why a terminal line reader could not start.
public enum LineReaderError: Error, Equatable, CustomStringConvertible {
  /// libedit could not open the terminal.
  case noTerminal
  /// libedit refused one of snm's settings (named).
  case setupFailed(String)
  /// snm's process group is in the background of its terminal and no shell can bring it to the
  /// front (no job control): the terminal is another's.
  case inTheBackground

  public var description: String {
    switch self {
    case .noTerminal: "libedit could not open the terminal"
    case .setupFailed(let what): "libedit refused the \(what) setting"
    case .inTheBackground: ScriptLoadError.inTheBackground("-").description
    }
  }
}
