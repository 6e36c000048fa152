/// Runs the lifecycle of one project folder: start, stop, status, reset, serve.
struct LocalProjectController {
  var options: LocalProjectOptions

  func start() throws(LocalProjectError) -> LocalProjectStatus {
    throw LocalProjectError(.unavailable, "the local project is not built yet")
  }
}
