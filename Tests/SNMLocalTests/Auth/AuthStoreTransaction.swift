import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// Runs `body` on a connection to the Auth stores' own test database (`AuthStoreTests.database`)
/// inside a transaction that is rolled back afterwards, so nothing a test writes stays.
func inAuthStoreTransaction(_ body: (PGConnection) throws -> Void) throws {
  let connection = try PGConnection(conninfo: try AuthStoreTests.database.get())
  _ = try connection.execute("begin")
  defer { _ = try? connection.execute("rollback") }
  try body(connection)
}

/// One column of one auth.users row, as text.
func userColumn(_ column: String, of userID: String, on connection: PGConnection) throws
  -> String?
{
  try connection.execute("select \(column)::text from auth.users where id = $1::uuid", [userID])
    .scalar
}
