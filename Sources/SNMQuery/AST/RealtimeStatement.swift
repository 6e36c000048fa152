/// A Realtime statement: subscribe, send, or wait for an event.
/// The words are matched as words (any case), so they stay free as names everywhere else.
///
/// ```swift
/// let script = Parser.parse(Source(text: "listen todos insert where owner eq $me"))
/// if case .realtime(.listen(let listen)) = script.statements[0].kind { print(listen.topic) }
/// ```
public enum RealtimeStatement: Sendable, Equatable {
  /// `listen <table> [insert|update|delete|*] [where ...]` or `listen channel <topic> [private]`
  case listen(RealtimeListen)
  /// `unlisten <table or topic>`; nil: `unlisten` or `unlisten all`
  case unlisten(Name?)
  /// `broadcast <topic> <event> <json>`
  case broadcast(topic: Name, event: Name, payload: ValueNode)
  /// `track <topic> <json>`: this client's presence on a topic
  case track(topic: Name, payload: ValueNode)
  /// `untrack <topic>`
  case untrack(topic: Name)
  /// `expect [no] event [<subscription>] [<kind>] [where ...] [within 5s]`
  case expectEvent(RealtimeExpectation)
  /// `realtime check <table>` or `realtime check channel <topic> [private]`: why events would
  /// not arrive, for the signed-in user
  case check(RealtimeCheckTarget)

  /// The values the statement uses (for checking variables).
  public var values: [ValueNode] {
    switch self {
    case .listen(let listen): listen.filter?.values ?? []
    case .broadcast(_, _, let payload), .track(_, let payload): [payload]
    case .expectEvent(let expectation): expectation.filter?.values ?? []
    case .unlisten, .untrack, .check: []
    }
  }
}

/// What `listen` subscribes to.
public struct RealtimeListen: Sendable, Equatable {
  public enum Target: Sendable, Equatable {
    /// postgres_changes on a table, one kind of change or all
    case table(TableName, RealtimeChange)
    /// broadcast and presence on a topic (`private`: authorised by RLS on `realtime.messages`)
    case channel(Name, isPrivate: Bool)
  }

  public var target: Target
  /// `where ...` on a table: Realtime's filter (`and` of column comparisons).
  public var filter: Condition?

  /// The name the subscription goes by in `unlisten` and `expect event`: the table's name (with
  /// its schema when written) or the topic.
  public var name: String {
    switch target {
    case .table(let table, _):
      table.schema.map { $0.text + "." + table.name.text } ?? table.name.text
    case .channel(let topic, _): topic.text
    }
  }

  /// The Phoenix topic the channel joins: `realtime:<name>`.
  public var topic: String { "realtime:" + name }
}

/// What `realtime check` looks at.
public enum RealtimeCheckTarget: Sendable, Equatable {
  /// A table's postgres_changes: the publication, replica identity, RLS, the join.
  case table(TableName)
  /// A channel: the join, and for a private one the read and write policies on
  /// `realtime.messages`.
  case channel(Name, isPrivate: Bool)

  /// The name a check reports on: `schema.table` (public when none is written) or the topic.
  public var name: String {
    switch self {
    case .table(let table): (table.schema?.text ?? "public") + "." + table.name.text
    case .channel(let topic, _): topic.text
    }
  }
}

/// The change kinds of postgres_changes, as Realtime's `event` field spells them.
public enum RealtimeChange: String, Sendable, Equatable, CaseIterable {
  case all = "*"
  case insert = "INSERT"
  case update = "UPDATE"
  case delete = "DELETE"

  /// The word the language spells it with (`*`, `insert`, ...).
  public var word: String { self == .all ? "*" : rawValue.lowercased() }
}

/// `expect [no] event ...`: the next event of a subscription that matches, within a time.
public struct RealtimeExpectation: Sendable, Equatable {
  /// `expect no event`: no matching event may arrive within the time.
  public var negated: Bool = false
  /// The subscription (table or topic) the event comes from; nil: any.
  public var subscription: Name?
  /// `insert`/`update`/`delete` for a table, the event name for a channel (`cursor`, `join`,
  /// `leave`, `sync`); nil: any.
  public var kind: Name?
  /// `where ...` on the event's record (the old record for a delete) or broadcast payload.
  public var filter: Condition?
  /// `within 5s`; nil: the default, ``RealtimeExpectation/defaultMilliseconds``.
  public var within: DurationValue?

  /// How long `expect event` waits when no `within` is written.
  public static let defaultMilliseconds = 5_000

  /// How long to wait, in milliseconds.
  public var milliseconds: Int { within?.milliseconds ?? Self.defaultMilliseconds }
}

extension Condition {
  /// The values of every predicate, in order.
  var values: [ValueNode] {
    switch shape {
    case .predicate(let predicate): [predicate.value]
    case .and(let operands, _), .or(let operands, _): operands.flatMap(\.values)
    case .not(let operand, _): operand.values
    }
  }
}
