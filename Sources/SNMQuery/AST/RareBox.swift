/// The parts of a syntax node that few statements write, in one box made only when one of them
/// is written (a node holds `RareBox<Parts>?`, nil when none is: never a box of nothing). The
/// node's common parts stay in place, so that making, moving, emptying and destroying the many
/// nodes that have none of these parts moves one word and releases nothing. Read in place and
/// never changed: a change makes a new box (rare parts are set once, by the parser).
final class RareBox<Parts: Sendable & Equatable>: Sendable {
  let parts: Parts

  init(_ parts: Parts) { self.parts = parts }

  /// The box of `parts`, or nil when they are `none` (the parts no node writes).
  static func box(_ parts: Parts, unless none: Parts) -> RareBox? {
    parts == none ? nil : RareBox(parts)
  }

  /// Whether two boxes hold equal parts (nil: the parts no node writes).
  static func same(_ left: RareBox?, _ right: RareBox?) -> Bool {
    left === right || left?.parts == right?.parts
  }
}
