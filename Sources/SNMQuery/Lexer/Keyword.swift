/// Every word the language gives a meaning to. Matched case-insensitively; in a name position any
/// keyword is still accepted as a name (`where status eq 'a'`).
public enum Keyword: String, Sendable, Hashable, CaseIterable {
  // queries
  case from, select, `where`, and, or, not, `is`, `in`, null, `true`, `false`
  case order, by, asc, desc, nulls, first, last, limit, offset, single, maybe, count
  case exact, planned, estimated, returning, insert, upsert, update, delete, rpc, get
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
  case help, tables, describe, explain, set, format, timing, on_error, exit, quit
  case stop, `continue`, off, json, curl

  /// The keyword spelled by `bytes` (any letter case), if any.
  @inlinable
  public static func lookup(_ bytes: ArraySlice<UInt8>) -> Keyword? {
    guard bytes.count <= 16, let key = PackedWord(bytes) else { return nil }
    return table[key]
  }

  @usableFromInline
  static let table: [PackedWord: Keyword] = {
    var table: [PackedWord: Keyword] = [:]
    for keyword in Keyword.allCases {
      if let key = PackedWord(ArraySlice(keyword.rawValue.utf8)) { table[key] = keyword }
    }
    return table
  }()
}

/// Up to 16 ASCII bytes, lowercased and packed into two integers: a keyword lookup without
/// allocating a String.
@usableFromInline
struct PackedWord: Hashable, Sendable {
  @usableFromInline var low: UInt64 = 0
  @usableFromInline var high: UInt64 = 0

  @inlinable
  init?(_ bytes: ArraySlice<UInt8>) {
    guard bytes.count <= 16 else { return nil }
    var index = 0
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      let lower = UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
      if index < 8 {
        low |= lower << (UInt64(index) * 8)
      } else {
        high |= lower << (UInt64(index - 8) * 8)
      }
      index += 1
    }
  }
}
