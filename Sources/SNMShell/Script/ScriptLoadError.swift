import Foundation

/// Why a script file could not be read, said with its path (control characters in the name as
/// escapes: a file name never drives the terminal) and, for a failed system call, what the
/// system said in words and its errno name.
///
/// ```swift
/// ScriptLoadError.unreadable("a.snm", errno: EACCES).description
/// // cannot read 'a.snm': permission denied (EACCES)
/// ```
public enum ScriptLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  case notFound(String)
  /// A symbolic link whose target (the second value, as the link says it) does not exist.
  case danglingLink(String, target: String)
  case isDirectory(String)
  /// A socket or another kind of file that holds no text to read (the second value says which).
  case notAFile(String, kind: String)
  /// `open(2)`, `fstat(2)`, `read(2)` or `poll(2)` failed with `errno`.
  case unreadable(String, errno: Int32)
  case notText(String)
  /// More than `limit` bytes: a file of that size (`bytes`), or a pipe or device that gave more
  /// (`bytes` nil: it was not read further).
  case tooLarge(String, bytes: Int?, limit: Int)
  /// SIGINT or SIGTERM while waiting for a pipe's writer (`waiting`) or its next bytes.
  case interrupted(String, signal: Int32, waiting: Bool)
  /// A terminal snm's process group is in the background of, where no shell can bring it to the
  /// front (the group is orphaned: no job control): the kernel fails every read of it (EIO).
  case inTheBackground(String)

  /// What to do with a script past the limit, which no setting moves (ScriptLoader's
  /// `maximumBytes` says why it is where it is).
  static let tooLargeAdvice =
    "rows go in a file a statement reads ('insert file'), or split the script"

  /// Whether the file is not there (no such file, or a symbolic link to none): a script may
  /// write it before the statement that runs it.
  var isMissing: Bool {
    switch self {
    case .notFound, .danglingLink: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .notFound(let path): "no such file \(Self.shown(path))"
    case .danglingLink(let path, let target):
      "\(Self.shown(path)) is a symbolic link to \(Self.shown(target)), which does not exist"
    case .isDirectory(let path): "\(Self.shown(path)) is a directory; name a .snm file"
    case .notAFile(let path, let kind): "\(Self.shown(path)) is \(kind), not a file to read"
    case .unreadable(let path, let errno):
      "cannot read \(Self.shown(path)): \(Self.words(errno: errno))"
    case .notText(let path): "\(Self.shown(path)) is not UTF-8 text"
    case .tooLarge(let path, let bytes?, let limit):
      "\(Self.shown(path)) is \(Self.grouped(bytes)) bytes, more than a script may be "
        + "(\(limit >> 20) MiB, a fixed limit); " + Self.tooLargeAdvice
    case .tooLarge(let path, nil, let limit):
      "\(Self.shown(path)) gave more than \(limit >> 20) MiB, more than a script may be "
        + "(a fixed limit), and was read no further; " + Self.tooLargeAdvice
    case .interrupted(let path, let signal, let waiting):
      (signal == SIGTERM ? "terminated" : "interrupted")
        + (waiting ? " waiting for a writer to open " : " reading ") + Self.shown(path)
    case .inTheBackground(let path):
      "cannot read \(Self.shown(path)): snm is in the background of its terminal and no shell "
        + "can bring it to the front (no job control); run snm in the foreground, or give it "
        + "its statements with -c, a file or a pipe"
    }
  }

  /// The exit code the error ends a command with: 130 or 143 for a signal, else 2 (usage).
  public var exitCode: ExitCode {
    guard case .interrupted(_, let signal, _) = self else { return .usage }
    return signal == SIGTERM ? .terminated : .interrupted
  }

  /// `'a.snm'`, or `standard input` for `-`; control characters and invisible format
  /// characters in the name as escapes (`\u{1B}`).
  public static func shown(_ path: String) -> String {
    path == "-" ? "standard input" : "'\(VisibleText.escaped(path))'"
  }

  /// What `errno` means, in words, with its name: `permission denied (EACCES)`.
  static func words(errno: Int32) -> String {
    switch errno {
    case EACCES: "permission denied (EACCES)"
    case EPERM: "operation not permitted (EPERM)"
    case ENOENT: "no such file or directory (ENOENT)"
    case ENOTDIR: "a part of the path is not a directory (ENOTDIR)"
    case EISDIR: "it is a directory (EISDIR)"
    case ELOOP: "too many levels of symbolic links, a loop? (ELOOP)"
    case ENAMETOOLONG: "the name is too long (ENAMETOOLONG)"
    case ENXIO: "no such device or address: a socket, or a device not there (ENXIO)"
    case ENODEV: "no such device (ENODEV)"
    case EIO: "input/output error: the disk or device failed (EIO)"
    case ENOSPC: "no space left on the device (ENOSPC)"
    case EDQUOT: "the disk quota is used up (EDQUOT)"
    case EFBIG: "the file is larger than allowed here (EFBIG)"
    case EBADF: "not open (EBADF)"
    case EMFILE, ENFILE: "too many files open (\(errno == EMFILE ? "EMFILE" : "ENFILE"))"
    case ENOMEM: "out of memory (ENOMEM)"
    case EOVERFLOW: "too large for this system (EOVERFLOW)"
    case ETXTBSY: "busy (ETXTBSY)"
    default: String(cString: strerror(errno)).lowercased() + " (errno \(errno))"
    }
  }

  /// `67,108,865`.
  static func grouped(_ number: Int) -> String {
    let digits = Array(String(number))
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }
}
