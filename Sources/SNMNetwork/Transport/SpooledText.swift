import SNMWire

/// The text of rows the check on arrival wrote (``ArrivingLines``) set aside past what memory
/// holds of it, in a temporary file of the spill's folder (``SpillFile``, made at the first
/// piece), up to the spill's `mostBytes`; read back in the same pieces when the rows are printed.
///
/// ```swift
/// lines.spool = SpooledText(policy: spill)
/// // ... the pieces set aside as the rows are taken; JSONRenderer reads them back in order
/// ```
/// A piece that cannot be set aside (the folder, a full disk, past `mostBytes`) is kept by the
/// lines, which take no more rows: those are printed from the body as before. The body's own
/// file comes first: when a write of it fails while this file holds text, the lines give it up
/// (``ArrivingLines/giveUp()``, which closes this file) and the body's write is tried again.
final class SpooledText: HeldTextSpool {
  private let directory: String
  private let mostBytes: Int
  private var file: SpillFile?
  private(set) var pieces: [Int] = []
  private var bytes = 0

  init(policy: BodySpill) {
    directory = policy.directory
    mostBytes = policy.mostBytes
  }

  func setAside(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard text.count <= mostBytes - bytes else { return false }
    do throws(TransportFileError) {
      if file == nil { file = try SpillFile(directory: directory) }
      try file?.write(UnsafeRawBufferPointer(text))
    } catch {
      // What a full disk took of the piece is given back to the body's own file.
      file?.dropPartialWrite()
      return false
    }
    pieces.append(text.count)
    bytes += text.count
    return true
  }

  func read(into room: UnsafeMutableRawBufferPointer, at offset: Int) throws {
    guard let file, offset + room.count <= bytes else {
      throw TransportFileError(
        path: directory, call: "read the answer's temporary file in",
        reason: "it holds \(bytes) bytes, not \(offset + room.count)")
    }
    try file.read(into: room, at: offset)
  }
}
