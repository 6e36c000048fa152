import Foundation

@testable import SNMLocalStorage

/// libFuzzer entry for Storage's `multipart/form-data` reader (``MultipartReader``, which reads
/// an upload's form as it arrives): arbitrary bytes as a form's body (boundary `fuzz`), read all
/// at once and in pieces whose sizes come from the input, the way `recv` may split them. Fails
/// (traps) when the two readings disagree (the parts, their bytes, a refusal, the end) or when a
/// part's name or head passes its bound. Built and run by `scripts/fuzz run multipart`.
@_cdecl("LLVMFuzzerTestOneInput")
public func multipartFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let pieceSizes = bytes.prefix(8).map { Int($0 % 17) + 1 }
  let whole = MultipartFuzzFeed.events(bytes, pieceSizes: [])
  let pieces = MultipartFuzzFeed.events(bytes, pieceSizes: pieceSizes)
  fuzzCheck(whole == pieces, "pieces read differently: \(whole) vs \(pieces)")
  for event in whole {
    guard case .part(let name, let filename, let type) = event else { continue }
    let head = name.utf8.count + (filename?.utf8.count ?? 0) + (type?.utf8.count ?? 0)
    fuzzCheck(head <= 16 * 1024, "a part head over 16 KiB")
  }
  return 0
}

/// Feeds bytes to a ``MultipartReader`` and records what it reports, consecutive data merged
/// (pieces split a part's bytes differently).
enum MultipartFuzzFeed {
  enum Event: Equatable {
    case part(String, String?, String?)
    case data([UInt8])
    case end
    case refused
    case finished
  }

  static func events(_ bytes: [UInt8], pieceSizes: [Int]) -> [Event] {
    var reader = MultipartReader(boundary: "fuzz")
    var events: [Event] = []
    var offset = 0
    var index = 0
    while offset < bytes.count {
      let size = pieceSizes.isEmpty ? bytes.count : pieceSizes[index % pieceSizes.count]
      index += 1
      let end = min(bytes.count, offset + size)
      let piece = Array(bytes[offset..<end])
      offset = end
      let refused = piece.withUnsafeBytes { raw -> Bool in
        do throws(StorageFailure) {
          try reader.feed(raw) { (event) throws(StorageFailure) in
            switch event {
            case .partStart(let name, let filename, let type):
              events.append(.part(name, filename, type))
            case .data(let data):
              if case .data(let before) = events.last {
                events[events.count - 1] = .data(before + Array(data))
              } else {
                events.append(.data(Array(data)))
              }
            case .partEnd:
              events.append(.end)
            }
          }
          return false
        } catch {
          return true
        }
      }
      if refused {
        events.append(.refused)
        return events
      }
    }
    if reader.isFinished { events.append(.finished) }
    return events
  }
}
