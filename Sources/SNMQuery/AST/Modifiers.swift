import SNMSupabase

/// What may follow the filters of a query or `rpc`, in any order.
///
/// The clauses most statements write (order, limit, offset, single) are held in place; the rest
/// (``Rare``: `modifiers.rare?.count`) in one box, made only when one of them is written: every
/// statement made, moved and freed all eighteen fields, most of them empty (`snm check` paid for
/// each at every statement).
public struct Modifiers: Sendable, Equatable {
  public var order: [OrderItem] = []
  public var limit: ValueNode?
  public var offset: ValueNode?
  public var single: SingleMode?
  /// Where `order by` and `single` were written, for messages about them.
  public var orderRange: SourceRange?
  public var singleRange: SourceRange?
  /// The clauses few statements write; nil when none is (never a box of nothing).
  private var box: RareBox<Rare>?

  public init() {}

  /// The clauses few statements write.
  public struct Rare: Sendable, Equatable {
    /// `count exact|planned|estimated` (`Prefer: count=...`).
    public var count: CountMode?
    /// `returning <items>` (writes and rpc): `Prefer: return=representation` and `select=`.
    public var returning: SelectList?
    /// Where `count` and `returning` were written, for messages about them.
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
    /// `all` (select): every row, read a page at a time past the server's row cap
    /// (``PageWindow``).
    public var all: SourceRange?

    public init() {}
  }

  /// The clauses few statements write, read in their box (`modifiers.rare?.count`); nil when
  /// none is written.
  public var rare: Rare? { box?.parts }

  /// The same clauses to set (`modifiers.clauses.count = .exact`): each change makes a new box,
  /// or none when every clause is empty.
  public var clauses: Rare {
    get { box?.parts ?? Rare() }
    set { box = .box(newValue, unless: Rare()) }
  }

  public static func == (left: Modifiers, right: Modifiers) -> Bool {
    left.order == right.order && left.limit == right.limit && left.offset == right.offset
      && left.single == right.single && left.orderRange == right.orderRange
      && left.singleRange == right.singleRange && RareBox.same(left.box, right.box)
  }

  public var isEmpty: Bool {
    order.isEmpty && limit == nil && offset == nil && single == nil && rare?.count == nil
      && rare?.returning == nil && rare?.head == nil && rare?.maxAffected == nil
      && rare?.rollback == nil && rare?.plan == nil && rare?.outputFile == nil && rare?.all == nil
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
