import SNMSupabase

/// What may follow the filters of a query or `rpc`, in any order.
public struct Modifiers: Sendable, Equatable {
  public var order: [OrderItem] = []
  public var limit: ValueNode?
  public var offset: ValueNode?
  public var single: SingleMode?
  public var count: CountMode?
  /// `returning <items>` (writes and rpc): `Prefer: return=representation` and `select=`.
  public var returning: [SelectItem]?
  /// Where `order by`, `single`, `count` and `returning` were written, for messages about them.
  public var orderRange: SourceRange?
  public var singleRange: SourceRange?
  public var countRange: SourceRange?
  public var returningRange: SourceRange?
  /// `head` (after `count ...`): HEAD, the count without the rows.
  public var head: SourceRange?
  /// `max affected N`: `Prefer: handling=strict, max-affected=N` (400 PGRST124 past N rows).
  public var maxAffected: ValueNode?
  public var maxAffectedRange: SourceRange?
  /// `rollback`: `Prefer: tx=rollback`, the write undone by the server (checked by
  /// `Preference-Applied`).
  public var rollback: SourceRange?
  /// `plan [analyze] [verbose] [settings] [buffers] [wal]`: the server's execution plan of the
  /// statement instead of its rows (`Accept: application/vnd.pgrst.plan+text`).
  public var plan: [String]?
  public var planRange: SourceRange?
  /// `> 'out.csv'`: the result goes to a file, in the format its extension names.
  public var outputFile: OutputFile?
  /// `all` (select): every row, read a page at a time past the server's row cap (``PageWindow``).
  public var all: SourceRange?

  public init() {}

  public var isEmpty: Bool {
    order.isEmpty && limit == nil && offset == nil && single == nil && count == nil
      && returning == nil && head == nil && maxAffected == nil && rollback == nil
      && plan == nil && outputFile == nil && all == nil
  }

  /// `single` (exactly one row) or `maybe single` (zero or one).
  public enum SingleMode: String, Sendable, Equatable {
    case single
    case maybeSingle = "maybe single"
  }

  /// `count exact|planned|estimated` (`Prefer: count=...`): the request layer's option.
  public typealias CountMode = SupabaseCountOption
}

/// `column [asc|desc] [nulls first|last]`.
public struct OrderItem: Sendable, Equatable {
  public var column: ColumnPath
  public var direction: Direction?
  public var nulls: Nulls?
  public var range: SourceRange

  public enum Direction: String, Sendable, Equatable {
    case asc, desc
  }

  public enum Nulls: String, Sendable, Equatable {
    case first = "nullsfirst"
    case last = "nullslast"
  }
}
