import CQREncode

/// A QR code (libqrencode, error correction M, byte mode), as the matrix of its dark modules:
/// what an authenticator app scans to enrol a TOTP secret.
///
/// ```swift
/// let qr = QRCode(totp.uri(issuer: "snm", account: "kim@example.com"))!
/// qr.size                // 33 (modules a side, without the quiet zone)
/// qr.isDark(x: 0, y: 0)  // true: the corner of a finder pattern
/// qr.svg()               // "<svg xmlns=…" (GoTrue's enrol answer carries one as a data URI)
/// ```
/// nil when the text does not fit (over about 2300 bytes) or libqrencode fails.
public struct QRCode: Sendable, Equatable {
  /// Modules a side.
  public let size: Int
  /// Row-major, `true` for dark.
  public let modules: [Bool]

  public init?(_ text: String) {
    guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
    defer { QRcode_free(code) }
    let width = Int(code.pointee.width)
    guard width > 0, let data = code.pointee.data else { return nil }
    size = width
    modules = (0..<(width * width)).map { data[$0] & 1 == 1 }
  }

  public func isDark(x: Int, y: Int) -> Bool {
    x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
  }

  /// An SVG of the code, `moduleSize` units a module with a quiet zone of 4 modules: one path of
  /// dark squares on a white square.
  public func svg(moduleSize: Int = 4) -> String {
    let side = (size + 8) * moduleSize
    var path = ""
    for y in 0..<size {
      for x in 0..<size where isDark(x: x, y: y) {
        path +=
          "M\((x + 4) * moduleSize),\((y + 4) * moduleSize)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
      }
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(side)\" height=\"\(side)\" "
      + "viewBox=\"0 0 \(side) \(side)\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
      + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
  }
}
