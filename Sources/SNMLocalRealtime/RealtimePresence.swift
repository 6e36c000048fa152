import SNMWire

/// Who is present on one topic, as Phoenix.Presence keeps it: per key a list of metas, each the
/// tracked object plus its `phx_ref`, owned by the socket that tracked it.
///
/// ```swift
/// var presence = RealtimePresence()
/// let diff = presence.track(owner: 7, key: "u1", payload: ["status": "online"], ref: "F1")
/// presence.state      // {"u1": {"metas": [{"phx_ref": "F1", "status": "online"}]}}
/// ```
struct RealtimePresence: Sendable {
  struct Meta: Sendable {
    var owner: ObjectIdentifier
    var key: String
    var ref: String
    var payload: JSONObject
  }

  private(set) var metas: [Meta] = []

  var isEmpty: Bool { metas.isEmpty }

  /// `presence_state`: every key with its metas.
  var state: JSONValue { Self.grouped(metas, previous: [:]) }

  /// Tracks `payload` for `owner` under `key`: a join, or for an owner already tracked there a
  /// leave of the old meta and a join of the new (`phx_ref_prev`); nil when the payload is the
  /// same (nothing changes).
  mutating func track(owner: ObjectIdentifier, key: String, payload: JSONObject, ref: String)
    -> JSONValue?
  {
    let old = metas.firstIndex { $0.owner == owner && $0.key == key }
    var previous: [String: String] = [:]
    var leaves: [Meta] = []
    if let old {
      if metas[old].payload == payload { return nil }
      leaves.append(metas.remove(at: old))
      previous[ref] = leaves[0].ref
    }
    let meta = Meta(owner: owner, key: key, ref: ref, payload: payload)
    metas.append(meta)
    return Self.diff(joins: [meta], leaves: leaves, previous: previous)
  }

  /// Removes what `owner` tracked (an untrack, a leave, a closed socket); the diff, or nil when
  /// it tracked nothing.
  mutating func untrack(owner: ObjectIdentifier) -> JSONValue? {
    let leaves = metas.filter { $0.owner == owner }
    guard !leaves.isEmpty else { return nil }
    metas.removeAll { $0.owner == owner }
    return Self.diff(joins: [], leaves: leaves, previous: [:])
  }

  static func diff(joins: [Meta], leaves: [Meta], previous: [String: String]) -> JSONValue {
    ["joins": grouped(joins, previous: previous), "leaves": grouped(leaves, previous: [:])]
  }

  /// `{key: {"metas": [{"phx_ref": ref, ...payload}]}}` in the order tracked.
  static func grouped(_ metas: [Meta], previous: [String: String]) -> JSONValue {
    var object = JSONObject()
    for meta in metas {
      var entry: JSONObject = ["phx_ref": .string(meta.ref)]
      if let prior = previous[meta.ref] { entry.append("phx_ref_prev", .string(prior)) }
      for (name, value) in meta.payload where name != "phx_ref" && name != "phx_ref_prev" {
        entry.append(name, value)
      }
      var list = object[meta.key]?["metas"]?.arrayValue ?? []
      list.append(.object(entry))
      object[meta.key] = ["metas": .array(list)]
    }
    return .object(object)
  }
}
