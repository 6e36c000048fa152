import SNMWire
import Testing

@testable import SNMLocal
@testable import SNMLocalRealtime

@Suite struct RealtimePresenceTests {
  final class Owner {}

  @Test func trackUpdateAndUntrackAsPhoenixPresence() {
    let one = Owner()
    let two = Owner()
    var presence = RealtimePresence()
    let joined = presence.track(
      owner: ObjectIdentifier(one), key: "u1", payload: ["s": "on"], ref: "r1")
    #expect(joined == ["joins": ["u1": ["metas": [["phx_ref": "r1", "s": "on"]]]], "leaves": [:]])
    // The same payload again changes nothing.
    #expect(
      presence.track(owner: ObjectIdentifier(one), key: "u1", payload: ["s": "on"], ref: "r2")
        == nil)
    // Another payload: a leave of the old meta and a join that names it.
    let updated = presence.track(
      owner: ObjectIdentifier(one), key: "u1", payload: ["s": "away"], ref: "r3")
    #expect(
      updated
        == [
          "joins": ["u1": ["metas": [["phx_ref": "r3", "phx_ref_prev": "r1", "s": "away"]]]],
          "leaves": ["u1": ["metas": [["phx_ref": "r1", "s": "on"]]]],
        ])
    _ = presence.track(owner: ObjectIdentifier(two), key: "u1", payload: ["s": "on"], ref: "r4")
    #expect(
      presence.state == [
        "u1": ["metas": [["phx_ref": "r3", "s": "away"], ["phx_ref": "r4", "s": "on"]]]
      ])
    let left = presence.untrack(owner: ObjectIdentifier(one))
    #expect(left == ["joins": [:], "leaves": ["u1": ["metas": [["phx_ref": "r3", "s": "away"]]]]])
    #expect(presence.untrack(owner: ObjectIdentifier(one)) == nil)
    _ = presence.untrack(owner: ObjectIdentifier(two))
    #expect(presence.isEmpty)
  }

  @Test func joinConfigReadsAsRealtimeDoes() throws {
    let payload = try JSONValue(
      parsing:
        #"{"config":{"broadcast":{"self":"true","ack":1},"presence":{"enabled":true,"key":"k"},"private":false,"postgres_changes":[{"event":"*"},7]},"user_token":"t"}"#
    )
    let config = RealtimeJoinConfig(payload: payload)
    #expect(config.broadcastSelf && !config.broadcastAck)
    #expect(config.presenceEnabled && config.presenceKey == "k" && !config.isPrivate)
    #expect(config.postgresChanges == [["event": "*"]])
    #expect(config.accessToken == "t")
    #expect(RealtimeJoinConfig(payload: "junk") == RealtimeJoinConfig())
  }
}
