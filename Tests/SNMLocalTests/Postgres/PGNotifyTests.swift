import Foundation
import Testing

@testable import SNMGateway

/// LISTEN/NOTIFY on the scratch cluster (`SNM_REST_TEST_PGHOST`, as the REST database tests;
/// skipped without it): how the REST gateway hears `NOTIFY pgrst, 'reload schema'`.
@Suite(.enabled(if: authStoreHost != nil)) struct PGNotifyTests {
  static func connect() throws -> PGConnection {
    try PGConnection(conninfo: "host=\(authStoreHost ?? "") user=postgres dbname=postgres")
  }

  @Test func aNotificationOnTheChannelArrivesWithItsPayload() throws {
    let listener = try Self.connect()
    let sender = try Self.connect()
    let channel = "snm test \(UUID().uuidString)"
    try listener.listen(channel)
    _ = try sender.execute("select pg_notify($1, 'other channel')", ["elsewhere \(channel)"])
    _ = try sender.execute("select pg_notify($1, $2)", [channel, "reload schema"])
    _ = try sender.execute("select pg_notify($1, $2)", [channel, "second"])
    // Committed before they were sent: each is already on its way, the wait ends at once.
    #expect(
      try listener.nextNotification(timeout: 30)
        == PGConnection.Notification(channel: channel, payload: "reload schema"),
      "a channel name is an identifier, quoted: spaces and case kept")
    #expect(try listener.nextNotification(timeout: 30)?.payload == "second", "in order")
    #expect(try listener.nextNotification(timeout: 0) == nil, "none for another channel")
    #expect(try listener.execute("select 1").scalar == "1", "the connection is usable")
  }

  @Test func aNotificationInARolledBackTransactionIsNeverSent() throws {
    let listener = try Self.connect()
    let sender = try Self.connect()
    let channel = "snm_test_\(UUID().uuidString.prefix(8))"
    try listener.listen(channel)
    _ = try sender.execute("begin")
    _ = try sender.execute("select pg_notify($1, 'rolled back')", [channel])
    _ = try sender.execute("rollback")
    _ = try sender.execute("select pg_notify($1, 'committed')", [channel])
    #expect(try listener.nextNotification(timeout: 30)?.payload == "committed")
  }
}
