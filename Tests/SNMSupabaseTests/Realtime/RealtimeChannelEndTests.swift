import SNMWire
import Testing

@testable import SNMSupabase

/// Why a channel ended, from the messages Realtime pushes on it: its own errors (a rate limit, a
/// refused token) are always followed by phx_close, so they end the channel as closed by the
/// server at once; a reader woken between the two messages sees the same end as one woken after.
@Suite struct RealtimeChannelEndTests {
  static func push(_ event: String, _ payload: JSONValue) -> PhoenixMessage {
    PhoenixMessage(joinRef: "1", ref: nil, topic: "realtime:room1", event: event, payload: payload)
  }

  @Test func aRateLimitErrorClosesTheChannelBeforeAndAfterItsClose() {
    let error = Self.push(
      "system",
      [
        "extension": "system", "status": "error", "message": "Too many messages per second",
        "channel": "room1",
      ])
    let first = RealtimeChannelEnd(error, after: nil)
    #expect(first == .closedByServer(reason: "Too many messages per second"))
    #expect(first?.isClosedByServer == true)
    let closed = RealtimeChannelEnd(Self.push("phx_close", [:]), after: first)
    #expect(closed == first)
    #expect(
      closed.map { "\($0)" } == "the server closed the channel: Too many messages per second")
  }

  @Test func aChangeStreamErrorLeavesTheChannelOpen() {
    let error = Self.push(
      "system",
      [
        "extension": "postgres_changes", "status": "error",
        "message": "Unable to subscribe to changes with given parameters",
      ])
    let end = RealtimeChannelEnd(error, after: nil)
    #expect(end == .serverError("Unable to subscribe to changes with given parameters"))
    #expect(end?.isClosedByServer == false)
  }

  @Test func anOkSystemMessageIsNoEnd() {
    let ok = Self.push(
      "system",
      ["extension": "postgres_changes", "status": "ok", "message": "Subscribed to PostgreSQL"])
    #expect(RealtimeChannelEnd(ok, after: nil) == nil)
  }

  @Test func aCrashKeepsTheEarlierReason() {
    let change = RealtimeChannelEnd(
      Self.push("system", ["extension": "postgres_changes", "status": "error", "message": "gone"]),
      after: nil)
    #expect(
      RealtimeChannelEnd(Self.push("phx_error", [:]), after: change) == .crashed(reason: "gone"))
  }
}
