/// Every word the language gives a meaning to. Matched case-insensitively; in a name position any
/// keyword is still accepted as a name (`where status eq 'a'`).
public enum Keyword: String, Sendable, Hashable, CaseIterable {
  // queries
  case from, select, `where`, and, or, not, `is`, `in`, null, `true`, `false`
  case order, by, asc, desc, nulls, first, last, limit, offset, single, maybe, count
  case exact, planned, estimated, returning, insert, upsert, update, delete, put, rpc, get
  case on, conflict, ignore, duplicates, all, any
  // filter operators in word form
  case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch, isdistinct
  case cs, contains, cd, containedby, ov, overlaps, sl, sr, nxl, nxr, adj
  case fts, plfts, phfts, wfts
  // session
  case login, email, password, signup, session, check, show, logout
  // scripts
  case `let`, expect, rows, status, error, echo, run, matches
  // shell
  case help, tables, describe, explain, set, format, timing, pager, on_error, exit, quit
  // storage
  case storage
  case stop, `continue`, off, json, curl
  // scripts, round two: teardown, waiting, heads, guarded writes, files
  case `defer`, within, every, head, max, affected, rollback, exists, header, time, file, output,
    csv

  /// The keyword spelled by `bytes` (any letter case), if any.
  public static func lookup(_ bytes: ArraySlice<UInt8>) -> Keyword? {
    KeywordTable.shared.lookup(bytes)
  }
}

/// A table from packed spellings (`PackedWord`, each byte folded to one case) to keywords, where
/// no two keywords share a slot: a lookup is an add, a multiply, a shift and one compare, with no
/// probing and no hashing of a String. Its slots, their keywords and the multiplier are in one
/// allocation of its own (the lexer's loop keeps one register for all three), made once and never
/// freed (`shared`), read without an array's bounds checks.
struct KeywordTable: @unchecked Sendable {
  static let shared = KeywordTable()
  static let longest = Keyword.allCases.map(\.rawValue.utf8.count).max() ?? 16
  /// A multiplier that gives every keyword a slot of its own (found by `init`'s search, from the
  /// same start): kept so the search ends at its first try.
  static let knownMultiplier: UInt64 = 0xA14D_C1B9_2618_1E43

  /// The slots' packed spellings; after them, each slot's keyword (`keywords`), then the
  /// multiplier (`multiplierPlace`).
  private let words: UnsafeMutablePointer<PackedWord>
  /// The multiplier in use: `knownMultiplier`, or, when a keyword added since shares a slot with
  /// another under it, the next one of the search that gives each its own.
  var multiplier: UInt64 { multiplierPlace.pointee }
  /// `longest`, kept here: the lexer reads it for every word, and a static `let` is a lazy
  /// global (a `swift_once` check at every read).
  let longestWord = KeywordTable.longest
  private static let bits: UInt64 = 10
  private static let size = 1 << Int(bits)

  /// Each slot's keyword, just after the slots.
  @inline(__always) private var keywords: UnsafeMutablePointer<Keyword?> {
    UnsafeMutableRawPointer(words + Self.size).assumingMemoryBound(to: Keyword?.self)
  }

  /// The multiplier's place, just after the keywords.
  @inline(__always) private var multiplierPlace: UnsafeMutablePointer<UInt64> {
    (UnsafeMutableRawPointer(words + Self.size) + Self.size).assumingMemoryBound(to: UInt64.self)
  }

  init() {
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: Self.size * (MemoryLayout<PackedWord>.stride + 1) + 8,
      alignment: MemoryLayout<PackedWord>.alignment)
    words = memory.bindMemory(to: PackedWord.self, capacity: Self.size)
    (memory + Self.size * MemoryLayout<PackedWord>.stride).bindMemory(
      to: Keyword?.self, capacity: Self.size)
    (memory + Self.size * (MemoryLayout<PackedWord>.stride + 1)).bindMemory(
      to: UInt64.self, capacity: 1)
    let packed = Keyword.allCases.compactMap { keyword in
      PackedWord(ArraySlice(keyword.rawValue.utf8)).map { (keyword, $0) }
    }
    var multiplier = Self.knownMultiplier
    while true {
      words.initialize(repeating: PackedWord(), count: Self.size)
      keywords.initialize(repeating: nil, count: Self.size)
      var placed = true
      for (keyword, word) in packed {
        let slot = Self.slot(word, multiplier)
        if keywords[slot] != nil {
          placed = false
          break
        }
        words[slot] = word
        keywords[slot] = keyword
      }
      if placed { break }
      multiplier = (multiplier &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407) | 1
    }
    multiplierPlace.initialize(to: multiplier)
  }

  @inline(__always) static func slot(_ word: PackedWord, _ multiplier: UInt64) -> Int {
    Int(truncatingIfNeeded: ((word.low &+ word.high) &* multiplier) &>> (64 &- bits))
  }

  func lookup(_ bytes: ArraySlice<UInt8>) -> Keyword? {
    guard bytes.count <= Self.longest, let word = PackedWord(bytes) else { return nil }
    return find(word)
  }

  /// The keyword `bytes[start..<end]` spells, where those are name bytes (`isNameByte`), at
  /// least one: what the lexer asks of each word. Packed by one load when the word has at most 8
  /// bytes and 8 are left from `start` (most words), by two when it is longer and 16 are left.
  @inline(__always)
  func find(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Keyword? {
    let length = end &- start
    var word = PackedWord()
    if length <= 8 && start &+ 8 <= bytes.count {
      // Folded and cut to the word: the bytes after it are read, never kept.
      word.low =
        (NameWord.load(bytes, at: start) | PackedWord.folds)
        & (UInt64.max &>> UInt64(truncatingIfNeeded: (8 &- length) &* 8))
      return find(word)
    }
    guard length <= longestWord else { return nil }
    if start &+ 16 <= bytes.count {
      // Two loads, folded and cut to the word: the bytes after it are read, never kept.
      let low = NameWord.load(bytes, at: start) | PackedWord.folds
      if length > 8 {
        word.low = low
        word.high = NameWord.first(
          length &- 8, of: NameWord.load(bytes, at: start &+ 8) | PackedWord.folds)
      } else {
        word.low = low & (UInt64.max &>> UInt64(truncatingIfNeeded: (8 &- length) &* 8))
      }
    } else {
      var offset = start
      while offset < end {
        word.append(bytes[offset], at: UInt64(truncatingIfNeeded: (offset &- start) &* 8))
        offset &+= 1
      }
    }
    return find(word)
  }

  /// The keyword packed in `word` (of at most `longest` bytes), if any: the one in its slot.
  /// The keyword of at most seven bytes packed in `low` (its top byte zero), if any: only such a
  /// keyword's packing equals it, so its second half is not compared.
  @inline(__always) func find(short low: UInt64) -> Keyword? {
    let slot = Self.slot(PackedWord(low: low), multiplier)
    return words[slot].low == low ? keywords[slot] : nil
  }

  @inline(__always) func find(_ word: PackedWord) -> Keyword? {
    let slot = Self.slot(word, multiplier)
    return words[slot] == word ? keywords[slot] : nil
  }
}

/// Up to 16 name bytes (`isNameByte`), packed into two integers with each byte folded to one case:
/// a keyword lookup without allocating a String. A byte is folded by setting its 0x20 bit, which
/// makes `A`-`Z` `a`-`z`, leaves digits, `$` and `a`-`z` as they are, and makes `_` 0x7F: no two
/// name bytes fold to the same byte unless they are one letter in two cases.
struct PackedWord: Hashable, Sendable {
  var low: UInt64 = 0
  var high: UInt64 = 0

  /// The fold of eight bytes at once.
  @inline(__always) static var folds: UInt64 { 0x2020_2020_2020_2020 }

  init() {}

  /// Eight bytes or fewer, packed and folded already (`low`).
  @inline(__always) init(low: UInt64) { self.low = low }

  /// `bytes` packed; nil when it holds more than 16 bytes or a byte that is not a name byte.
  init?(_ bytes: ArraySlice<UInt8>) {
    guard bytes.count <= 16 else { return nil }
    var shift: UInt64 = 0
    for byte in bytes {
      guard isNameByte(byte) else { return nil }
      append(byte, at: shift)
      shift += 8
    }
  }

  /// Packs `byte` (a name byte), folded, at bit `shift` (8 a byte, below 128).
  @inline(__always) mutating func append(_ byte: UInt8, at shift: UInt64) {
    let folded = UInt64(byte | 0x20)
    if shift < 64 {
      low |= folded &<< shift
    } else {
      high |= folded &<< (shift &- 64)
    }
  }
}
