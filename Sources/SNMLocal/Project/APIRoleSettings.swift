import SNMGateway

/// `[api] max_rows`, `schemas` and `extra_search_path` of a project folder's config.toml, put
/// where snm's REST gateway reads them as PostgREST does: the authenticator role's in-database
/// settings `pgrst.db_max_rows`, `pgrst.db_schemas`, `pgrst.db_extra_search_path`.
///
/// ```swift
/// try APIRoleSettings(state: state, previous: saved).apply(on: adminConnection)
/// ```
/// A setting the file no longer gives is reset when the project set it before (`previous`);
/// one the file never gave is left as the database has it.
struct APIRoleSettings {
  var state: ProjectState
  var previous: ProjectState?

  /// (setting, value now, value before).
  var settings: [(name: String, value: String?, before: String?)] {
    [
      ("pgrst.db_max_rows", state.maxRows.map(String.init), previous?.maxRows.map(String.init)),
      (
        "pgrst.db_schemas", state.schemas?.joined(separator: ","),
        previous?.schemas?.joined(separator: ",")
      ),
      (
        "pgrst.db_extra_search_path", state.extraSearchPath?.joined(separator: ","),
        previous?.extraSearchPath?.joined(separator: ",")
      ),
    ]
  }

  /// - Throws: `LocalProjectError` with Postgres's message.
  func apply(on connection: PGConnection) throws(LocalProjectError) {
    for (name, value, before) in settings where value != nil || before != nil {
      do {
        // The statement is written by Postgres's format() from parameters: the value as a
        // literal, the setting's name fixed here.
        let statement =
          value == nil
          ? "alter role authenticator reset \(name)"
          : try connection.execute(
            "select format('alter role authenticator set \(name) = %L', $1::text)", [value]
          ).rows.first?.first.flatMap { $0 } ?? ""
        _ = try connection.execute(statement)
      } catch {
        throw LocalProjectError(
          .failed, "cannot set \(name) for config.toml's [api]: \(error.message)")
      }
    }
  }
}
