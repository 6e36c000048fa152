import SNMNetwork
import SNMQuery
import SNMSupabase

/// What a statement family reads, handed in for each statement: the project and how requests
/// reach it, a snapshot of the settings and variables, whether a person is at the prompt, the
/// session, the schema catalog, where `\o` sends results. A family never reaches into the
/// executor's state; it returns what changed with its result.
///
/// ```swift
/// let environment = await executor.statementEnvironment()
/// let outcome = await PsqlCommand(.setTiming(true)).run(in: environment, output: out)
/// ```
struct StatementEnvironment: Sendable {
  /// The project statements go to.
  let project: ProjectSelection
  /// The settings as they were when the statement started.
  let settings: ShellSettings
  /// Whether statements come from a person at the prompt (notes about settings print then).
  let interactive: Bool
  /// The project's session.
  let sessions: SessionManager
  /// The file `\o` sends results to now (nil: standard output).
  let resultsPath: String?
  /// The variables the statement may use: `--var`/`let` values, `$env`, `$session`.
  let variables: VariableScope
  /// Who is signed in as the prompt names them (nil: the key's role).
  let signedIn: String?
  /// Table, column and function names: what `describe` reads and results add to.
  let catalog: SchemaCatalog
  /// Passwords and codes that reports never print: a statement adds the secrets it meets.
  let secrets: SecretValues
  /// Sends requests so that Ctrl-C cancels the one in flight.
  let sender: StatementSender
  /// How the statement reaches the project: providers, Auth, and whether it runs `as service`.
  let connection: StatementConnection
}

/// How a statement's requests reach the project: the shared provider (connections kept alive),
/// the service key's, the Auth client, and whether the statement runs `as service` (its DB and
/// Storage requests then go with the service key and no session).
struct StatementConnection: Sendable {
  /// Sends the statements' requests with the project's key.
  let provider: SNMNetworkProvider
  /// Sends with the service key; nil when the project has none.
  let serviceProvider: SNMNetworkProvider?
  /// Signs in, up and out for the session statements.
  let auth: any AuthManageable
  /// Whether the statement runs `as service`.
  var asService = false
}
