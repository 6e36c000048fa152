import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a person pastes at the terminal while `login provider` waits, when the browser runs
/// elsewhere and cannot reach snm's loopback port (as `gh auth login` lets one paste): the
/// address the browser was sent to (`http://127.0.0.1:PORT/callback?code=...`, its query read
/// as the redirect's) or the code alone. Lines are read as they come; an empty one is passed
/// over.
///
/// ```swift
/// var pasted = PastedRedirect(fd: STDIN_FILENO)
/// pasted.readLine()                                        // ["code": "..."] once a line is whole
/// PastedRedirect.query(of: "http://127.0.0.1:5/callback?code=abc")   // ["code": "abc"]
/// ```
struct PastedRedirect {
  /// Where lines come from; nil once it ended (or when nothing may be pasted).
  private(set) var fd: Int32?
  private var pending: [UInt8] = []

  init(fd: Int32?) {
    self.fd = fd
  }

  /// Reads what the terminal has; the query of the first whole line that says something, else
  /// nil (more is to come, or the input ended).
  mutating func readLine() -> [String: String]? {
    guard let source = fd else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = Glibc.read(source, &buffer, buffer.count)
    guard count > 0 else {
      if count == 0 || (errno != EINTR && errno != EAGAIN) { fd = nil }
      return nil
    }
    pending += buffer[0..<count]
    // A line longer than any redirect is no redirect: kept from growing without bound.
    if pending.count > 65_536 { pending.removeAll() }
    while let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
      let line = String(decoding: pending[..<end], as: UTF8.self)
      pending.removeSubrange(...end)
      if let query = Self.query(of: line) { return query }
    }
    return nil
  }

  /// The redirect a pasted line stands for: an address's query (its fragment too, where an
  /// error may be), or a code alone; nil for an empty line.
  static func query(of line: String) -> [String: String]? {
    let text = line.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return nil }
    guard let mark = text.firstIndex(where: { $0 == "?" || $0 == "#" }) else {
      return ["code": text]
    }
    let rest = text[text.index(after: mark)...]
    let parts = rest.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    var query = LoopbackRedirect.decodeQuery(String(parts[0]))
    if parts.count > 1 {
      query.merge(LoopbackRedirect.decodeQuery(String(parts[1]))) { kept, _ in kept }
    }
    return query
  }
}
