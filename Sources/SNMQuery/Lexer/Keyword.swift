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

/// An open-addressing table from packed lowercase spellings to keywords: a lookup is a multiply,
/// a shift and one or two compares, with no hashing of a String.
struct KeywordTable: Sendable {
  static let shared = KeywordTable()
  static let longest = Keyword.allCases.map(\.rawValue.utf8.count).max() ?? 16

  private var words: [PackedWord]
  private var keywords: [Keyword?]
  /// `longest`, kept here: the lexer reads it for every word, and a static `let` is a lazy
  /// global (a `swift_once` check at every read).
  let longestWord = KeywordTable.longest
  private static let bits: UInt64 = 9

  init() {
    let size = 1 << Int(Self.bits)
    words = Array(repeating: PackedWord(), count: size)
    keywords = Array(repeating: nil, count: size)
    for keyword in Keyword.allCases {
      guard let word = PackedWord(ArraySlice(keyword.rawValue.utf8)) else { continue }
      var slot = Self.slot(word)
      while keywords[slot] != nil { slot = (slot + 1) & (size - 1) }
      words[slot] = word
      keywords[slot] = keyword
    }
  }

  static func slot(_ word: PackedWord) -> Int {
    Int(truncatingIfNeeded: ((word.low &* 0x9E37_79B9_7F4A_7C15) ^ word.high) >> (64 - bits))
  }

  func lookup(_ bytes: ArraySlice<UInt8>) -> Keyword? {
    guard bytes.count <= Self.longest, let word = PackedWord(bytes) else { return nil }
    return find(word)
  }

  /// The keyword `bytes[start..<end]` spells: what the lexer asks of each word, without making a
  /// slice (which retains and releases the source's bytes).
  func lookup(in bytes: [UInt8], from start: Int, to end: Int) -> Keyword? {
    guard end - start <= Self.longest, let word = PackedWord(bytes, from: start, to: end) else {
      return nil
    }
    return find(word)
  }

  /// The keyword packed in `word` (of at most `longest` bytes), if any. Inlined: the lexer asks
  /// it of nearly every word.
  @inline(__always) func find(_ word: PackedWord) -> Keyword? {
    var slot = Self.slot(word)
    while let keyword = keywords[slot] {
      if words[slot] == word { return keyword }
      slot = (slot + 1) & (keywords.count - 1)
    }
    return nil
  }
}

/// Up to 16 ASCII bytes, lowercased and packed into two integers: a keyword lookup without
/// allocating a String.
struct PackedWord: Hashable, Sendable {
  var low: UInt64 = 0
  var high: UInt64 = 0

  init() {}

  init?(_ bytes: ArraySlice<UInt8>) {
    self.init(Array(bytes), from: 0, to: bytes.count)
  }

  /// `bytes[start..<end]`, packed.
  init?(_ bytes: [UInt8], from start: Int, to end: Int) {
    guard end - start <= 16, start >= 0, end <= bytes.count else { return nil }
    var shift: UInt64 = 0
    var offset = start
    while offset < end {
      let byte = bytes[offset]
      guard byte < 0x80 else { return nil }
      append(byte, at: shift)
      shift += 8
      offset += 1
    }
  }

  /// `bytes[start..<end]` (ASCII name bytes, at most 16 of them), packed lowercase: what
  /// `append` makes of them one at a time, with 8 bytes to each word.
  @inline(__always)
  init(lowercasingASCII bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
    let length = end &- start
    if start &+ 16 <= bytes.count {
      // Two loads, lowercased and cut to the word: the bytes after it are read, never kept.
      low = NameWord.first(length, of: NameWord.lowercased(NameWord.load(bytes, at: start)))
      if length > 8 {
        high = NameWord.first(
          length &- 8, of: NameWord.lowercased(NameWord.load(bytes, at: start &+ 8)))
      }
      return
    }
    let middle = min(end, start &+ 8)
    var offset = start
    var shift: UInt64 = 0
    while offset < middle {
      low |= PackedWord.lowercased(bytes[offset]) << shift
      shift &+= 8
      offset &+= 1
    }
    shift = 0
    while offset < end {
      high |= PackedWord.lowercased(bytes[offset]) << shift
      shift &+= 8
      offset &+= 1
    }
  }

  @inline(__always) static func lowercased(_ byte: UInt8) -> UInt64 {
    UInt64(byte &- 0x41 < 26 ? byte | 0x20 : byte)
  }

  /// Packs `byte` (ASCII), lowercased, at bit `shift` (8 a byte); bytes past 16 are dropped (the
  /// caller refuses words that long).
  @inline(__always) mutating func append(_ byte: UInt8, at shift: UInt64) {
    let lower = UInt64(byte &- 0x41 < 26 ? byte | 0x20 : byte)
    if shift < 64 {
      low |= lower << shift
    } else if shift < 128 {
      high |= lower << (shift &- 64)
    }
  }
}
