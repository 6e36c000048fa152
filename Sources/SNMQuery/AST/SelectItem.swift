/// A select list (`select ...`, `returning ...`): one level of a statement's select list, whose
/// items, with its embeds' items, are one array, depth first (an embed followed by its own items),
/// each node holding the index of the item after it at its level. A collection of that level's
/// items by node index; an embed's items are `items(of:)` its index. Equal when the lists are (the
/// same items, embeds and theirs, wherever in their arrays they are).
public struct SelectList: Sendable, Equatable, Collection {
  let nodes: [SelectNode]
  public let startIndex: Int
  public let endIndex: Int

  init(nodes: [SelectNode], startIndex: Int, endIndex: Int) {
    self.nodes = nodes
    self.startIndex = startIndex
    self.endIndex = endIndex
  }

  /// The item at a node index, copied (the checker lends each node in place instead:
  /// `Array.withBorrowedElement(at:)`).
  public subscript(position: Int) -> SelectItem { nodes[position].item }

  public func index(after node: Int) -> Int {
    nodes.withUnsafeBufferPointer { $0[node].next }
  }

  /// The items of the embed at `node` (empty for an item that is not an embed).
  public func items(of node: Int) -> SelectList {
    SelectList(nodes: nodes, startIndex: node + 1, endIndex: index(after: node))
  }

  public static func == (left: SelectList, right: SelectList) -> Bool {
    guard left.endIndex - left.startIndex == right.endIndex - right.startIndex else { return false }
    let offset = right.startIndex - left.startIndex
    return left.nodes[left.startIndex..<left.endIndex].elementsEqual(
      right.nodes[right.startIndex..<right.endIndex]
    ) { one, other in one.item == other.item && one.next + offset == other.next }
  }
}

/// An item of a select list and the index of the item after it at its level (after an embed's own
/// items).
struct SelectNode: Sendable {
  var item: SelectItem
  var next: Int
  /// Whether one of the item's own names was written in quotes (a word is never empty, a
  /// quoted name may be) or it has an aggregate (whose name may be none): what the parser knows
  /// as it adds the item, so that the checker looks into only such items
  /// (``Checker/checkSelect(_:)``).
  var quotedOrAggregate: Bool
}

extension [SelectNode] {
  /// Appends an item with no items of its own (the next item goes right after it).
  mutating func append(item: consuming SelectItem, quotedOrAggregate: Bool) {
    append(SelectNode(item: item, next: count + 1, quotedOrAggregate: quotedOrAggregate))
  }

  /// Appends an embed, its items to follow until it is `close`d; its node.
  mutating func open(_ embed: consuming SelectEmbed, quoted: Bool) -> Int {
    append(item: .embed(embed), quotedOrAggregate: quoted)
    return count - 1
  }

  /// Gives the embed at `node` its end and the index after its items, appended since: in place
  /// (written again from the embed as opened, that embed was copied, its names retained, and
  /// the node's destroyed).
  mutating func close(at node: Int, end: Int) {
    let next = count
    self[node].next = next
    self[node].item.end(at: end)
  }
}

extension SelectItem {
  /// An embed's range ends at `end` (its payload moved out and back, not copied).
  fileprivate mutating func end(at end: Int) {
    switch consume self {
    case .embed(var embed):
      embed.range.end = end
      self = .embed(embed)
    case let other:
      self = other
    }
  }
}

/// One item of a select list (also of `returning`), stored by value in its list's array.
public enum SelectItem: Sendable, Equatable {
  /// `*`
  case star(range: SourceRange)
  /// `[alias:]column[->json path][::type][.aggregate()][::type]`
  case field(SelectField)
  /// `[alias:][...]relation[!hint...](items)`, its items after it in the list
  case embed(SelectEmbed)

  public var range: SourceRange {
    switch self {
    case .star(let range): range
    case .field(let field): field.range
    case .embed(let embed): embed.range
    }
  }
}

/// A column in a select list: `nick:name`, `age::text`, `data->>blood`, `amount.sum()`,
/// `amount::int.sum()::text`.
///
/// The aggregate and the casts, which few columns have, are in one box (``Functions``), made only
/// when one is written: a select list's node held three names in place for them (some 90 bytes
/// of its ~190), each made, moved, emptied and destroyed at every item.
public struct SelectField: Sendable, Equatable {
  public var alias: Name?
  public var range: SourceRange
  public var column: ColumnPath
  /// The aggregate and the casts; nil when none is written.
  private let functions: RareBox<Functions>?

  /// `col.sum()` and friends, and the casts around them.
  struct Functions: Sendable, Equatable {
    var aggregate: Name?
    var inputCast: Name?
    var cast: Name?
  }

  /// `col.sum()` and friends; the bare `count()` is a field with an empty column name and
  /// aggregate `count`.
  public var aggregate: Name? { functions?.parts.aggregate }
  /// With an aggregate, the cast of the column before it is aggregated (`amount::int.sum()`).
  public var inputCast: Name? { functions?.parts.inputCast }
  /// The last cast: of the column, or of the aggregate's result (`amount.sum()::text`).
  public var cast: Name? { functions?.parts.cast }

  public static func == (left: SelectField, right: SelectField) -> Bool {
    left.alias == right.alias && left.range == right.range && left.column == right.column
      && RareBox.same(left.functions, right.functions)
  }
}

extension SelectField {
  /// Its parts taken, not copied; made by the memberwise initializer (an initializer that set
  /// the parts one by one built the field in `self` and copied it out: a retain and a release of
  /// each name). Inlined into the parser, as ``ColumnPath``'s and ``FilterPredicate``'s are: out
  /// of line (not inlined since the box), each was a call that took its parts in registers and
  /// wrote the value through memory, and the parts were retained for it and released after.
  @inline(__always) public init(
    alias: consuming Name? = nil, column: consuming ColumnPath, aggregate: consuming Name? = nil,
    inputCast: consuming Name? = nil, cast: consuming Name? = nil, range: SourceRange
  ) {
    self.init(
      alias: alias, range: range, column: column,
      functions: aggregate == nil && inputCast == nil && cast == nil
        ? nil : RareBox(Functions(aggregate: aggregate, inputCast: inputCast, cast: cast)))
  }
}

/// An embedded resource: `owner:user_info(id, name)`, `user_info!inner(name)`, `...rel(a)`; its
/// items follow it in its list (`SelectList.items(of:)`).
public struct SelectEmbed: Sendable, Equatable {
  public var alias: Name?
  public var relation: Name
  /// `!inner`, `!left`, `!fk_name`, in the order written.
  public var hints: [Name] = []
  /// `...rel(cols)` spreads the embedded columns into the parent row.
  public var spread: Bool = false
  public var range: SourceRange
}

/// A column reference: `[embed.]*column[->key|->>key]*`.
///
/// The embed path and the JSON path, which few columns have, are in one box (``Paths``), made
/// only when one is written: two arrays in place were two words to move and two releases (of the
/// empty array) at every column.
public struct ColumnPath: Sendable, Equatable {
  public var column: Name
  public var range: SourceRange
  /// The embed path and the JSON path; nil when neither is written.
  private let paths: RareBox<Paths>?

  struct Paths: Sendable, Equatable {
    var embedPath: [Name]
    var json: [JSONPathStep]
  }

  /// The embedded resources before the column (`messages` in `messages.public`).
  public var embedPath: [Name] { paths?.parts.embedPath ?? [] }
  /// The `->key` and `->>key` steps after the column.
  public var json: [JSONPathStep] { paths?.parts.json ?? [] }

  public static func == (left: ColumnPath, right: ColumnPath) -> Bool {
    left.column == right.column && left.range == right.range
      && RareBox.same(left.paths, right.paths)
  }
}

extension ColumnPath {
  /// Its parts taken, not copied; made by the memberwise initializer (as ``SelectField``'s). An
  /// empty path is none; the parser passes nil, so that a column with neither makes no array
  /// (an empty one, made and then released, was two calls at every column).
  @inline(__always) public init(
    embedPath: consuming [Name]? = nil, column: consuming Name,
    json: consuming [JSONPathStep]? = nil, range: SourceRange
  ) {
    self.init(
      column: column, range: range,
      paths: (embedPath?.isEmpty ?? true) && (json?.isEmpty ?? true)
        ? nil : RareBox(Paths(embedPath: embedPath ?? [], json: json ?? [])))
  }
}

/// One `->key` or `->>key` step of a JSON path.
public struct JSONPathStep: Sendable, Equatable {
  /// `->>` (as text) rather than `->` (as JSON).
  public var asText: Bool
  /// The key or array index as written (`blood`, `0`, `-1`).
  public var key: String
  /// The key was written in quotes (a key that is not a plain name).
  public var quoted: Bool = false
}
