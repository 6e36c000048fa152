/// A JSON object whose members keep the order they were written in (duplicates included).
///
/// ```swift
/// var row: JSONObject = ["id": 1, "name": "Kim"]
/// row["age"] = 3                 // appended: {"id":1,"name":"Kim","age":3}
/// row["id"] = nil                // removed
/// for (key, value) in row { print(key, value) }
/// ```
///
/// Lookup by key is a linear scan from the end (the last of repeated keys wins, as in JavaScript and
/// Postgres `jsonb`); rows are small. Objects parsed side by side with the same keys share one key array.
public struct JSONObject: Sendable, Hashable {
  /// The member names, in order.
  public private(set) var keys: [String]
  /// The member values, parallel to ``keys``.
  public private(set) var values: [JSONValue]

  /// An empty object.
  public init() {
    keys = []
    values = []
  }

  /// The members in the order given.
  public init(_ members: some Sequence<(String, JSONValue)>) {
    keys = []
    values = []
    for (key, value) in members {
      keys.append(key)
      values.append(value)
    }
  }

  /// The members given one by one: `JSONObject([.init("code", 400), .init("msg", "no")])`.
  public init(_ members: [Member]) {
    keys = members.map(\.key)
    values = members.map(\.value)
  }

  /// Makes room for `count` members in all (an object whose size is known, built member by member).
  public mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
  }

  /// Parallel arrays the parser already built; `keys.count == values.count`.
  init(sharedKeys keys: [String], values: [JSONValue]) {
    self.keys = keys
    self.values = values
  }

  /// The value of the member named `key` (the last one when it repeats); setting appends a new member
  /// or replaces that value, setting `nil` removes every member with that name.
  public subscript(key: String) -> JSONValue? {
    get {
      guard let index = keys.lastIndex(of: key) else { return nil }
      return values[index]
    }
    set {
      if let newValue {
        if let index = keys.lastIndex(of: key) {
          values[index] = newValue
        } else {
          append(key, newValue)
        }
      } else {
        removeAll(named: key)
      }
    }
  }

  /// Adds a member at the end, even when the name already exists.
  public mutating func append(_ key: String, _ value: JSONValue) {
    keys.append(key)
    values.append(value)
  }

  /// Adds `member` at the end, even when its name already exists.
  public mutating func append(_ member: Member) {
    append(member.key, member.value)
  }

  /// Removes every member named `key`.
  public mutating func removeAll(named key: String) {
    var index = keys.count - 1
    while index >= 0 {
      if keys[index] == key {
        keys.remove(at: index)
        values.remove(at: index)
      }
      index -= 1
    }
  }
}

extension JSONObject {
  /// One member, for objects built member by member (a server's answers).
  public struct Member: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }
}

extension JSONObject: RandomAccessCollection {
  public typealias Element = (key: String, value: JSONValue)

  public var startIndex: Int { 0 }
  public var endIndex: Int { keys.count }

  /// The member at `position`, in the order written.
  public subscript(position: Int) -> (key: String, value: JSONValue) {
    (keys[position], values[position])
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Members in the order written.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}
