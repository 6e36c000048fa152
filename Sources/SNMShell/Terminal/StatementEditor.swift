import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Edits text in the user's editor (`\e`): `$VISUAL`, else `$EDITOR`, else `vi`, on a temporary
/// file (0600, removed afterwards), with the terminal.
///
/// ```swift
/// switch await StatementEditor.edit("from user_info select *") {
/// case .edited(let text): ...          // what the file holds when the editor quits
/// case .failed(let why): ...           // could not start, or exited with a status
/// }
/// ```
/// The editor runs through `/bin/sh -c` (so `EDITOR="code -w"` works) in snm's process group
/// (``ForegroundCommand``): under a job-control shell it owns the terminal while it runs. SIGINT
/// and SIGTERM meanwhile are the editor's alone.
enum StatementEditor {
  enum Outcome: Equatable {
    case edited(String)
    case failed(String)
  }

  /// The command to run: `$VISUAL`, else `$EDITOR` (when set and not empty), else `vi`.
  static func command(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    for name in ["VISUAL", "EDITOR"] {
      if let chosen = environment[name], !chosen.trimmingCharacters(in: .whitespaces).isEmpty {
        return chosen
      }
    }
    return "vi"
  }

  /// Writes `text` to a new temporary file, runs the editor on it and returns what it holds then.
  static func edit(
    _ text: String, command: String = command(), signals: InterruptSignals = .shared
  ) async -> Outcome {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    var template = Array(((folder ?? "/tmp") + "/snm-edit-XXXXXX.snm").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return Int32(-1) }
      return mkstemps(base, 4)
    }
    guard fd >= 0 else {
      return .failed("cannot make a temporary file: \(String(cString: strerror(errno)))")
    }
    let path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    let written = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    written.write(Data((text.isEmpty || text.hasSuffix("\n") ? text : text + "\n").utf8))
    try? written.close()
    guard
      let child = ForegroundCommand.spawn(
        "\(command) \"$1\"", arguments: [path], pipingInput: false)
    else {
      return .failed("cannot start the editor '\(command)'")
    }
    let status = await signals.watch(onSignal: { _ in }) {
      ForegroundCommand.wait(for: child.pid)
    }
    guard let code = ForegroundCommand.exitCode(status) else {
      return .failed("the editor '\(command)' was ended by signal \(status & 0x7f)")
    }
    if code == 126 || code == 127 { return .failed("cannot start the editor '\(command)'") }
    guard code == 0 else { return .failed("the editor '\(command)' exited with status \(code)") }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failed("cannot read the edited file back")
    }
    return .edited(String(decoding: data, as: UTF8.self))
  }
}
