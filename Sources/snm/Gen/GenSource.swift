import Foundation
import SNMCodegen
import SNMGateway
import SNMLocal
import SNMNetwork
import SNMShell
import SNMWire

/// Where `snm gen` reads a schema from: the local project's catalog (one query as its
/// superuser over the cluster's socket) or another project's OpenAPI documents (one per schema,
/// `GET /rest/v1/` with `Accept-Profile`), with the service key when there is one.
enum GenSource {
  static func catalog(schemas: [String], directory: String?, options: ShellOptions) async throws
    -> DatabaseCatalog
  {
    if let directory {
      var local = LocalProjectOptions()
      local.dataDir = directory
      return try localCatalog(schemas: schemas, options: local)
    }
    let choice = try ProjectChoice.resolve(options)
    for note in choice.notes { ProjectTargeting.say(note) }
    switch choice.target {
    case .project(let project):
      return try await openAPICatalog(schemas: schemas, project: project, options: options)
    case .local:
      return try localCatalog(schemas: schemas, options: LocalProjectOptions())
    case .unnamed:
      let environment = ProcessInfo.processInfo.environment
      if ProjectChoice.underCI(environment) {
        // A CI job that forgot its project would otherwise compare with a local demo project.
        throw UsageError(
          "no project named, and CI is set (CI=\(ProjectChoice.shown(environment["CI"] ?? ""))): "
            + ProjectChoice.howToName + ", or --dir DIR for the local project in a folder")
      }
      ProjectTargeting.say(
        "no project named (--url, SUPABASE_URL, --profile): reading the local project's catalog "
          + "(--local chooses it without this note)")
      return try localCatalog(schemas: schemas, options: LocalProjectOptions())
    }
  }

  /// The catalog of the local project `options` names, started when it is not running.
  static func localCatalog(schemas: [String], options: LocalProjectOptions) throws
    -> DatabaseCatalog
  {
    let endpoint = try LocalProject.ensureRunning(options)
    let text: String
    do {
      let connection = try PGConnection(conninfo: endpoint.databaseURL)
      defer { connection.close() }
      let result = try connection.execute(CatalogQuery.sql, [SQLText.arrayLiteral(schemas)])
      text = result.scalar ?? "{}"
    } catch {
      throw CommandFailure(
        "the local project's catalog could not be read: \(error)", exitCode: .unreachable)
    }
    let catalog = try DatabaseCatalog(
      catalogJSON: text, schemas: schemas,
      source: "the local project's catalog (schemas: \(schemas.joined(separator: ", ")))")
    try requireFound(schemas, in: catalog, fromDocuments: false)
    return catalog
  }

  /// A schema with nothing in it is most likely a typo or one the API does not expose: say so
  /// rather than write an empty namespace.
  static func requireFound(_ schemas: [String], in catalog: DatabaseCatalog, fromDocuments: Bool)
    throws
  {
    for schema in schemas {
      let found =
        catalog.relations.contains { $0.schema == schema }
        || catalog.enums.contains { $0.schema == schema }
        || catalog.composites.contains { $0.schema == schema }
        || catalog.functions.contains { $0.schema == schema }
      if !found {
        throw CommandFailure(
          "schema '\(VisibleText.escaped(schema))' has no tables, views, types or functions"
            + (fromDocuments ? " the key's role may see" : "")
            + ": check its name (--schema)")
      }
    }
  }

  static func openAPICatalog(
    schemas: [String], project: ProjectSelection, options: ShellOptions
  ) async throws -> DatabaseCatalog {
    let serviceKey = options.serviceKey ?? project.serviceKey
    let key = serviceKey ?? project.key
    let provider = SNMNetworkProvider(configuration: options.networkConfiguration(key: key))
    var documents: [(schema: String, document: JSONValue)] = []
    for schema in schemas {
      let endpoint = Endpoint(
        baseURL: project.url.absoluteString, path: "/rest/v1/", method: .get,
        headers: ["Accept": "application/openapi+json", "Accept-Profile": schema])
      do {
        let response = try await provider.send(endpoint: endpoint)
        documents.append((schema, try response.json()))
      } catch {
        let shown = RunTarget(project: project, source: "").url
        let status = error.serverError.map { " (\($0.status))" } ?? ""
        let advice =
          serviceKey == nil
          ? ": hosted projects give the document to the service key (--service-key, "
            + "SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY)" : ""
        throw CommandFailure(
          "\(shown) did not give its OpenAPI document for schema '\(VisibleText.escaped(schema))'"
            + "\(status): \(error)\(advice)", exitCode: .unreachable)
      }
    }
    let shown = RunTarget(project: project, source: "").url
    var catalog = DatabaseCatalog(
      openAPI: documents,
      source: "the OpenAPI document of \(shown) (schemas: \(schemas.joined(separator: ", ")); "
        + "\(serviceKey == nil ? "the project key's view" : "the service key's view"))")
    if serviceKey == nil {
      catalog.limits.append(
        "Read with the project key, not the service key: tables and functions its role may not "
          + "use are missing.")
    }
    try requireFound(schemas, in: catalog, fromDocuments: true)
    return catalog
  }
}
