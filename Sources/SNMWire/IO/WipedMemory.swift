import Foundation

/// Memory that held a secret (a password, a session's tokens, a request carrying a key or a
/// token) overwritten with zeros before it is given back: freed memory keeps what was written in
/// it until something else is, for a debugger of the same account, a core file or a later bug
/// that prints memory never written to find. `explicit_bzero`, which the optimiser never leaves
/// out as a store before `free` may be.
///
/// ```swift
/// var request = head + body
/// defer { WipedMemory.zero(&request) }
/// let body = WipedMemory.data(taking: &serialized)   // zeroed again when the last Data goes
/// ```
/// Only memory snm holds the one reference to is reached: a `String`'s storage, and the copies
/// Foundation makes inside `JSONEncoder`/`JSONDecoder`, are not.
public enum WipedMemory {
  /// Zeroes `bytes`.
  public static func zero(_ bytes: UnsafeMutableRawBufferPointer) {
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
    explicit_bzero(start, bytes.count)
  }

  /// Zeroes `bytes` in place (its memory, when nothing else shares it) and empties it.
  public static func zero(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { zero($0) }
    bytes.removeAll()
  }

  /// Zeroes `data` in place (its memory, when nothing else shares it) and empties it.
  public static func zero(_ data: inout Data) {
    data.withUnsafeMutableBytes { zero($0) }
    data = Data()
  }

  /// `bytes` as `Data` in memory of its own that is zeroed when the last `Data` over it goes;
  /// `bytes` is zeroed and emptied.
  public static func data(taking bytes: inout [UInt8]) -> Data {
    defer { zero(&bytes) }
    guard !bytes.isEmpty, let room = malloc(bytes.count) else { return Data() }
    bytes.withUnsafeBytes { source in
      if let start = source.baseAddress { room.copyMemory(from: start, byteCount: source.count) }
    }
    return Data(bytesNoCopy: room, count: bytes.count, deallocator: zeroingFree)
  }

  /// Frees memory from `malloc` once zeroed: a `Data`'s deallocator.
  public static var zeroingFree: Data.Deallocator {
    .custom { start, count in
      explicit_bzero(start, count)
      free(start)
    }
  }
}
