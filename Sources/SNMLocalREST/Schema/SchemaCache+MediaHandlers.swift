/// Content negotiation as PostgREST does it (Plan/Negotiate.hs `negotiateContent`): the first
/// accepted media type that some handler produces for the target wins.
extension SchemaCache {
  /// The handler and media type for a request whose rows come from `target` (a table or view,
  /// the table a function returns rows of, or the function itself for scalars).
  ///
  /// The vendored `vnd.pgrst` types always use the built-in JSON handlers; a relation's own
  /// handlers apply only to the default `select=*` (their aggregate takes the whole row); a
  /// plan is offered only when `pgrst.db_plan_enabled` is on.
  ///
  /// Throws 406 PGRST107 "None of these media types are available: ..." when none is produced.
  func negotiate(
    _ accepts: [MediaType], target: QualifiedName, defaultSelect: Bool
  ) throws(RESTError) -> ResolvedHandler {
    func lookup(_ media: MediaType) -> ResolvedHandler? {
      if defaultSelect {
        if let own = mediaHandlers[MediaHandlerKey(target: target, media: .any)] { return own }
        if let own = mediaHandlers[MediaHandlerKey(target: target, media: media)] { return own }
      }
      return mediaHandlers[MediaHandlerKey(target: nil, media: media)]
    }
    /// The vendored `vnd.pgrst` types' built-in JSON handler, for `media` alone or the rows a
    /// plan of it is about.
    func vendored(_ media: MediaType) -> MediaHandler? {
      switch media {
      case .object(let strip): .jsonObject(stripNulls: strip)
      case .arrayStripped: .jsonArray(stripNulls: true)
      default: nil
      }
    }
    func match(_ media: MediaType) -> ResolvedHandler? {
      if let handler = vendored(media) { return ResolvedHandler(handler: handler, media: media) }
      guard case .plan(let inner, _, _) = media else { return lookup(media) }
      guard planEnabled else { return nil }
      return (vendored(inner) ?? lookup(inner)?.handler).map {
        ResolvedHandler(handler: $0, media: media)
      }
    }
    for media in accepts {
      if let resolved = match(media) { return resolved }
    }
    throw RESTError.unacceptableMediaType(accepts.map(\.mime))
  }

  /// The root's OpenAPI document is offered as `application/openapi+json`, `application/json`
  /// or `*/*`; 406 PGRST107 otherwise.
  static func negotiateRoot(_ accepts: [MediaType]) throws(RESTError) {
    guard accepts.contains(where: { [.openAPI, .json, .any].contains($0) }) else {
      throw RESTError.unacceptableMediaType(accepts.map(\.mime))
    }
  }
}
