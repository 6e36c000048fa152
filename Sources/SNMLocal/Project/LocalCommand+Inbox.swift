import SNMWire

extension LocalCommand {
  /// `snm local inbox [ADDRESS] [--json]`: the mails the running project would have sent, newest
  /// first (its `/inbox/v1/messages`, asked with the project's service key). A table, every
  /// character a terminal must not get raw (a signed-up user's name, a redirect URL: another
  /// person's text) shown as an escape (`\u{202E}`); `--json` the array (``printJSON(_:)``).
  ///
  /// - Throws: `LocalProjectError` when no project runs in the folder or it does not answer.
  func printInbox(_ controller: LocalProjectController) throws(LocalProjectError) {
    guard let state = try ProjectState.load(dataDir: options.dataDir) else {
      throw LocalProjectError(
        .unavailable, "no project in \(options.dataDir) (run snm local start)")
    }
    let keys = try state.keys()
    var path = "/inbox/v1/messages?limit=1000"
    if let address = inboxAddress, !address.isEmpty {
      path += "&to=" + PercentEncoding.encode(address)
    }
    let port = given.contains("port") ? options.port : state.port
    guard let (status, body) = HTTPProbe.get(port: port, path: path, apiKey: keys.secretKey)
    else {
      throw LocalProjectError(
        .unavailable, "the local project on port \(port) does not answer (run snm local start)")
    }
    guard status == 200, let messages = (try? JSONValue(parsing: body))?.arrayValue else {
      throw LocalProjectError(.failed, "the inbox answered \(status)")
    }
    if json {
      printJSON(JSONValue.array(messages))
      return
    }
    guard !messages.isEmpty else {
      printLine("snm local: no mail" + (inboxAddress.map { " for \($0)" } ?? ""))
      return
    }
    let header = ["sent at", "to", "kind", "otp", "subject"]
    let rows = messages.map { message in
      ["sent_at", "to", "kind", "otp", "subject"].map { name in
        VisibleTextLine.escaped(message[name]?.stringValue ?? "")
      }
    }
    var widths = header.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { index, cell in
        index == cells.count - 1
          ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }.joined(separator: "  ")
    }
    var lines = [line(header), line(widths.map { String(repeating: "-", count: $0) })]
    lines += rows.map(line)
    lines.append(
      "(\(rows.count) mail\(rows.count == 1 ? "" : "s"); --json for the links and texts)")
    printLine(lines.joined(separator: "\n"))
  }
}
