import SNMWire

/// Held text set aside in memory (``HeldTextSpool``), as the temporary file holds it: the pieces
/// in order, read back from where they are asked for. It takes `limit` pieces, then no more.
public final class MemorySpool: HeldTextSpool {
  public private(set) var bytes: [UInt8] = []
  public private(set) var pieces: [Int] = []
  private let limit: Int

  public init(taking limit: Int = .max) {
    self.limit = limit
  }

  public func setAside(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard pieces.count < limit else { return false }
    bytes.append(contentsOf: text)
    pieces.append(text.count)
    return true
  }

  public func read(into room: UnsafeMutableRawBufferPointer, at offset: Int) throws {
    bytes[offset..<(offset + room.count)].withUnsafeBytes { room.copyMemory(from: $0) }
  }
}
