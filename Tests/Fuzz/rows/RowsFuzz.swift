import Foundation

@testable import SNMWire

/// libFuzzer entry for the check on arrival that writes rows as it reads them (``ArrivingLines``,
/// `--format json` and `ndjson` to a pipe or a file): arbitrary bytes as an answer's body, read
/// in pieces whose sizes come from the input (each piece the check is given is a copy the size of
/// what has arrived, so AddressSanitizer stops a read past it), the text held small so that rows
/// are set aside. The first byte picks the layout, the pieces, whether the bytes the check no
/// longer needs are dropped, and whether the text has the room made past what it holds (64 KiB,
/// as snm makes it: a body under 4 KiB never reaches its end) or none, so that the walk stops
/// where the room does and walks the row again in more (the room's text is made exactly its
/// size: AddressSanitizer stops a write past it). Fails (traps) when the verdict is not the
/// check's own on the whole body, or when the rows taken are not the writer's text of those
/// rows, byte for byte. Built and run by `scripts/fuzz run rows`.
@_cdecl("LLVMFuzzerTestOneInput")
public func rowsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let first = data[0]
  let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let layout: ArrivingLines.Layout = first & 1 == 0 ? .lines : .indented
  let windowed = first & 2 != 0
  let step = [0, 1, 3, 7, 16, 64, 300, 1024][Int(first >> 2) & 7]
  let whole = body.withUnsafeBufferPointer { buffer in
    var validator = JSONValidator(buffer)
    return validator.validate()
  }
  let spool = RowsFuzzSpool(taking: first & 0x20 == 0 ? .max : 2)
  // Bit 6: no room made past `most` (rows walked where the room stops them, and again in more).
  let lines = ArrivingLines(most: 256, layout: layout, past: first & 0x40 == 0 ? 64 << 10 : 0)
  lines.spool = spool
  var checker = JSONStreamValidator(runningEvery: 1)
  checker.lines = lines
  var window: [UInt8] = []
  var received = 0
  while received < body.count {
    let arrived = step == 0 ? body.count : min(body.count, received + step)
    window.append(contentsOf: body[received..<arrived])
    received = arrived
    RowsFuzzSpool.exactly(window) { checker.received($0) }
    if windowed, let unneeded = checker.unneeded {
      window.removeSubrange(unneeded)
      checker.dropped(unneeded)
    }
  }
  let shape = RowsFuzzSpool.exactly(window) { checker.finish($0) }
  fuzzCheck(shape == whole, "the verdict \(String(describing: shape)) is not the check's")
  guard let shape, let start = lines.start, let end = lines.end else { return 0 }
  let document = JSONDocument(checked: Data(body), shape: shape)
  let written = try? document.withElements(from: .start) { elements in
    var rows: [[UInt8]] = []
    var row: [UInt8] = layout == .lines ? [] : Array(",\n  ".utf8)
    let indent = layout == .lines ? nil : 2
    while try elements.appendNextText(to: &row, indent: indent, depth: indent == nil ? 0 : 1) {
      rows.append(layout == .lines ? row + [0x0A] : row)
      row = layout == .lines ? [] : Array(",\n  ".utf8)
    }
    return rows
  }
  guard let written else {
    fuzzCheck(false, "the writer refused a body the check accepted")
    return 0
  }
  fuzzCheck(
    start.count >= 1 && start.count <= end.count && end.count < written.count,
    "rows \(start.count)..<\(end.count) taken of \(written.count)")
  let held = spool.bytes + lines.withText { Array($0) }
  fuzzCheck(
    held == written[start.count..<end.count].flatMap { $0 },
    "the rows taken are not the writer's text")
  return 0
}

/// Text set aside in memory, taking at most `limit` pieces.
final class RowsFuzzSpool: HeldTextSpool {
  private(set) var bytes: [UInt8] = []
  private(set) var pieces: [Int] = []
  private let limit: Int

  init(taking limit: Int) {
    self.limit = limit
  }

  func setAside(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard pieces.count < limit else { return false }
    bytes.append(contentsOf: text)
    pieces.append(text.count)
    return true
  }

  func read(into room: UnsafeMutableRawBufferPointer, at offset: Int) throws {
    bytes[offset..<(offset + room.count)].withUnsafeBytes { room.copyMemory(from: $0) }
  }

  /// `body` given `bytes` in memory of exactly their size (an array's may be larger).
  static func exactly<Result>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    defer { copy.deallocate() }
    _ = copy.initialize(from: bytes)
    return body(UnsafeBufferPointer(copy))
  }
}
