import SNMGateway

/// What every Auth store is: named SQL operations on the caller's connection (its transaction,
/// when it began one), made as `FactorStore(connection)`. A store declares only
/// `let connection: PGConnection`; its memberwise `init(connection:)` meets this.
///
/// ```swift
/// struct SpentTokenStore: AuthSQLStore {
///   let connection: PGConnection
/// }
/// let fresh = try SpentTokenStore(connection).spend(key, until: expiry)
/// ```
protocol AuthSQLStore {
  var connection: PGConnection { get }
  init(connection: PGConnection)
}

extension AuthSQLStore {
  init(_ connection: PGConnection) {
    self.init(connection: connection)
  }
}
