/// The project the environment names (``ProjectChoice`` reads it): `SUPABASE_URL`, the first key variable set, the service key.
struct EnvironmentProject {
  var environment: [String: String]

  var url: String? { Self.nonEmpty(environment["SUPABASE_URL"]) }

  /// The first of ``ProjectSelection/keyVariables`` that is set, with its name.
  var key: (name: String, value: String)? {
    for name in ProjectSelection.keyVariables {
      if let value = Self.nonEmpty(environment[name]) { return (name, value) }
    }
    return nil
  }

  var serviceKey: String? {
    ProjectSelection.serviceKeyVariables.lazy.compactMap { Self.nonEmpty(environment[$0]) }.first
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
