/// The lexer's tokens, in memory it owns: appending one is a store and a count, without an
/// array's check that its storage is not shared (every token paid for one) or a bounds check
/// at each read (the token window keeps its reads within `count`).
///
/// ```swift
/// let buffer = TokenBuffer(capacity: 64)
/// buffer.append(token)
/// buffer[0]            // token
/// buffer.removeAll()   // the room kept for the next statement's tokens
/// ```
/// A lexer's own: a copy of the lexer shares it (the parser never copies its lexer).
final class TokenBuffer {
  // The lexer's loop keeps `base`, `count` and `capacity` in locals while it appends, and sets
  // `count` when it hands over (`Lexer.lexCommon(in:)`).
  @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<Token>
  @exclusivity(unchecked) var count = 0
  @exclusivity(unchecked) private(set) var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    // Tokens hold no references: nothing to deinitialize.
    base.deallocate()
  }

  @inline(__always) func append(_ token: Token) {
    if count == capacity { grow() }
    (base + count).initialize(to: token)
    count &+= 1
  }

  /// Twice the room, the tokens moved into it.
  func grow() {
    let larger = capacity &* 2
    let moved = UnsafeMutablePointer<Token>.allocate(capacity: larger)
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = larger
  }

  /// The token at `index`, which must be below `count`.
  @inline(__always) subscript(index: Int) -> Token {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "token index out of range")
    return base[index]
  }

  var last: Token? { count > 0 ? base[count &- 1] : nil }

  func removeAll() { count = 0 }

  /// The tokens as an array.
  var array: [Token] { Array(UnsafeBufferPointer(start: base, count: count)) }

  /// Holds `tokens` instead of its own.
  func replace(with tokens: [Token]) {
    removeAll()
    for token in tokens { append(token) }
  }
}
