import SNMCrypto

/// A QR code drawn with half-block characters, two modules a character row, dark on light with
/// the quiet zone the standard wants, for an authenticator app to scan off the terminal
/// (`mfa enroll totp` at a terminal).
///
/// ```swift
/// if let qr = QRCode(uri) { print(TerminalQRCode.render(qr)) }
/// ```
enum TerminalQRCode {
  /// Modules of light border around the code.
  static let quietZone = 2

  /// The lines of the code: `█` both light, `▀` top light, `▄` bottom light, ` ` both dark (a
  /// terminal's light-on-dark text, inverted so the code reads dark on light).
  static func render(_ qr: QRCode) -> String {
    let side = qr.size + 2 * quietZone
    func dark(_ x: Int, _ y: Int) -> Bool {
      let (cx, cy) = (x - quietZone, y - quietZone)
      guard cx >= 0, cy >= 0, cx < qr.size, cy < qr.size else { return false }
      return qr.isDark(x: cx, y: cy)
    }
    var lines: [String] = []
    var y = 0
    while y < side {
      var line = ""
      for x in 0..<side {
        let top = dark(x, y)
        let bottom = y + 1 < side ? dark(x, y + 1) : false
        switch (top, bottom) {
        case (false, false): line += "█"
        case (false, true): line += "▀"
        case (true, false): line += "▄"
        case (true, true): line += " "
        }
      }
      lines.append(line)
      y += 2
    }
    return lines.joined(separator: "\n")
  }
}
