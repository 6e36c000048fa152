/// The lexer's tokens, in memory it owns: appending one is a store and a count, without an
/// array's check that its storage is not shared (every token paid for one) or a bounds check
/// at each read (the token window keeps its reads within `count`).
///
/// ```swift
/// let buffer = TokenBuffer(capacity: 64)
/// buffer.append(token)
/// buffer[0]            // token
/// buffer.removeAll()   // the window passes its tokens: the next ones are read from base
/// ```
/// What a reader sees is a window, `count` tokens from `base`; the tokens after it (up to
/// `filled`) are lexed already. A lexer that goes a statement at a time lexes several statements
/// in one pass and keeps where each ends (`ends`): handing the next one over is setting the
/// window to it (`Lexer.lexStatement()`).
/// A lexer's own: a copy of the lexer shares it (the parser never copies its lexer).
final class TokenBuffer {
  // The lexer's loop keeps the buffer's end and room in locals while it appends, and sets
  // `filled` when it hands over (`Lexer.lexCommon()`).
  /// The first token of the window.
  @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<Token>
  /// The tokens in the window.
  @exclusivity(unchecked) var count = 0
  @exclusivity(unchecked) private(set) var capacity: Int
  /// The buffer's memory: `capacity` tokens.
  @exclusivity(unchecked) private(set) var storage: UnsafeMutablePointer<Token>
  /// Just past the last token lexed (the window's end, or further).
  @exclusivity(unchecked) var filled: UnsafeMutablePointer<Token>
  /// Just past each statement end lexed ahead of the window, in order: `endCount` of them, the
  /// first `handed` already handed over.
  let ends: UnsafeMutablePointer<UnsafeMutablePointer<Token>>
  @exclusivity(unchecked) var endCount = 0
  @exclusivity(unchecked) var handed = 0
  /// The brackets open after the tokens lexed (`Lexer.depth`): in memory of its own, which the
  /// lexer's loop reads and writes only at a bracket, a newline and a `;` (a local it carried
  /// through every path was kept in seven stack slots, each stored at every bracket).
  let depth: UnsafeMutablePointer<Int>
  /// The statement ends one pass records at most.
  static let endsRoom = 64

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    storage = .allocate(capacity: self.capacity)
    base = storage
    filled = storage
    ends = .allocate(capacity: TokenBuffer.endsRoom)
    depth = .allocate(capacity: 1)
    depth.initialize(to: 0)
  }

  deinit {
    // Tokens hold no references: nothing to deinitialize.
    storage.deallocate()
    ends.deallocate()
    depth.deallocate()
  }

  /// The end of the buffer's room.
  var room: UnsafeMutablePointer<Token> { storage + capacity }

  /// Appends a token after the last one lexed; the window grows by it.
  @inline(__always) func append(_ token: Token) {
    if filled == room { grow() }
    filled.initialize(to: token)
    filled += 1
    count &+= 1
  }

  /// Twice the room, the tokens moved into it (and the window and the ends with them).
  func grow() {
    let larger = capacity &* 2
    let moved = UnsafeMutablePointer<Token>.allocate(capacity: larger)
    let lexed = filled - storage
    moved.moveInitialize(from: storage, count: lexed)
    base = moved + (base - storage)
    for index in 0..<endCount { ends[index] = moved + (ends[index] - storage) }
    storage.deallocate()
    storage = moved
    filled = moved + lexed
    capacity = larger
  }

  /// The token at `index` of the window, which must be below `count`.
  @inline(__always) subscript(index: Int) -> Token {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "token index out of range")
    return base[index]
  }

  var last: Token? { count > 0 ? base[count &- 1] : nil }

  /// Empties the window: it starts after the tokens it held (the tokens lexed after them stay).
  func removeAll() {
    base += count
    count = 0
  }

  /// Whether a statement lexed ahead is still to be handed over.
  @inline(__always) var hasStatementAhead: Bool { handed < endCount }

  /// Sets the window to end at the next statement end lexed ahead (from `base`: the tokens the
  /// window still holds stay in it).
  @inline(__always) func handStatement() {
    count = ends[handed] - base
    handed &+= 1
  }

  /// Moves the tokens from the window's start on (those the window holds and those lexed after
  /// them) to the start of the buffer's memory, and forgets the statement ends handed over: the
  /// start of a pass that lexes statements ahead again.
  func restart() {
    let kept = filled - base
    if base != storage { storage.moveInitialize(from: base, count: kept) }
    base = storage
    filled = storage + kept
    endCount = 0
    handed = 0
  }

  /// The window's tokens as an array.
  var array: [Token] { Array(UnsafeBufferPointer(start: base, count: count)) }

  /// Holds `tokens` instead of its own, all of them in the window.
  func replace(with tokens: [Token]) {
    base = storage
    filled = storage
    count = 0
    endCount = 0
    handed = 0
    for token in tokens { append(token) }
  }
}
