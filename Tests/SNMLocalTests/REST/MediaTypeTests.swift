import Testing

@testable import SNMLocal
@testable import SNMLocalREST

/// `Accept` parsing and content negotiation as PostgREST does them (MediaType.hs,
/// Plan/Negotiate.hs), without a database.
@Suite struct MediaTypeTests {
  struct Spelling: Sendable, CustomStringConvertible {
    var text: String
    var media: MediaType
    var mime: String
    var description: String { text }
  }

  @Test(arguments: [
    Spelling(text: "application/json", media: .json, mime: "application/json"),
    Spelling(text: "text/plain; charset=utf-8", media: .textPlain, mime: "text/plain"),
    Spelling(
      text: "application/vnd.pgrst.array+json;nulls=stripped", media: .arrayStripped,
      mime: "application/vnd.pgrst.array+json;nulls=stripped"),
    Spelling(
      text: "application/vnd.pgrst.array+json", media: .json, mime: "application/json"),
    Spelling(
      text: "application/vnd.pgrst.object;nulls=stripped", media: .object(stripNulls: true),
      mime: "application/vnd.pgrst.object+json;nulls=stripped"),
    Spelling(text: "*/*", media: .any, mime: "*/*"),
    Spelling(text: "image/png", media: .other("image/png"), mime: "image/png"),
    Spelling(text: "undefined", media: .other("undefined"), mime: "undefined"),
    Spelling(
      text: "application/vnd.pgrst.plan+json; options=analyze|buffers",
      media: .plan(for: .json, format: .json, options: [.analyze, .buffers]),
      mime: "application/vnd.pgrst.plan+json; for=\"application/json\"; options=analyze|buffers"),
    Spelling(
      text: "application/vnd.pgrst.plan; for=\"application/vnd.pgrst.object\"",
      media: .plan(for: .object(stripNulls: false), format: .text, options: []),
      mime: "application/vnd.pgrst.plan+text; for=\"application/vnd.pgrst.object+json\""),
  ])
  func spellings(_ spelling: Spelling) {
    #expect(MediaType(spelling.text) == spelling.media)
    #expect(MediaType(spelling.text).mime == spelling.mime)
  }

  @Test func contentTypesCarryACharsetButForBinaryAndUnknownTypes() {
    #expect(MediaType.json.contentType == "application/json; charset=utf-8")
    #expect(
      MediaType.arrayStripped.contentType
        == "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8")
    #expect(MediaType.octetStream.contentType == "application/octet-stream")
    #expect(MediaType.other("text/html").contentType == "text/html")
  }

  @Test func acceptOrderIsQualityThenSpecificityThenAsWritten() {
    #expect(MediaType.accepted(nil) == [.any])
    #expect(MediaType.accepted("") == [.any])
    #expect(
      MediaType.accepted("text/html,application/xml;q=0.9,image/png,*/*;q=0.8")
        == [.other("text/html"), .other("image/png"), .other("application/xml"), .any])
    #expect(MediaType.accepted("*/*, text/csv") == [.csv, .any])
  }

  static let table = QualifiedName(schema: "public", name: "lines")
  static let custom = CustomMediaHandler(
    function: QualifiedName(schema: "public", name: "twkb_agg"), target: table, isCast: false,
    read: .bytes)

  static func cache(planEnabled: Bool = false) -> SchemaCache {
    var cache = SchemaCache(schemas: ["public"], tables: [])
    cache.planEnabled = planEnabled
    cache.mediaHandlers[MediaHandlerKey(target: table, media: .other("application/vnd.twkb"))] =
      ResolvedHandler(handler: .custom(custom), media: .other("application/vnd.twkb"))
    return cache
  }

  @Test func aRelationsOwnHandlerNeedsTheDefaultSelect() throws {
    let cache = Self.cache()
    let twkb = [MediaType("application/vnd.twkb")]
    #expect(
      try cache.negotiate(twkb, target: Self.table, defaultSelect: true).handler
        == .custom(Self.custom))
    #expect(throws: RESTError.unacceptableMediaType(["application/vnd.twkb"])) {
      try cache.negotiate(twkb, target: Self.table, defaultSelect: false)
    }
  }

  @Test func builtInHandlersAndTheFirstAcceptableType() throws {
    let cache = Self.cache()
    let other = QualifiedName(schema: "public", name: "projects")
    let resolved = try cache.negotiate(
      MediaType.accepted("text/plain, text/csv"), target: other, defaultSelect: true)
    #expect(resolved == ResolvedHandler(handler: .csv, media: .csv))
    #expect(
      try cache.negotiate([.any], target: other, defaultSelect: true).media == .json)
    #expect(throws: RESTError.unacceptableMediaType(["text/plain"])) {
      try cache.negotiate([.textPlain], target: other, defaultSelect: true)
    }
  }

  @Test func geoJSONIsBuiltInAndHandlersReadTheirValueAsPostgRESTDoes() throws {
    let other = QualifiedName(schema: "public", name: "projects")
    let resolved = try Self.cache().negotiate(
      [MediaType("application/geo+json")], target: other, defaultSelect: false)
    #expect(resolved == ResolvedHandler(handler: .geoJSON, media: .geoJSON))
    #expect(resolved.media.contentType == "application/geo+json; charset=utf-8")
    #expect(CustomMediaHandler.read(base: "bytea", send: "byteasend") == .bytes)
    #expect(CustomMediaHandler.read(base: "text", send: "textsend") == .text)
    #expect(CustomMediaHandler.read(base: "json", send: "json_send") == .text)
    #expect(CustomMediaHandler.read(base: "jsonb", send: "jsonb_send") == .send("jsonb_send"))
    #expect(CustomMediaHandler.read(base: "integer", send: "int4send") == .send("int4send"))
  }

  @Test func plansOnlyWhenEnabled() throws {
    let plan = MediaType("application/vnd.pgrst.plan+json")
    #expect(throws: RESTError.unacceptableMediaType([plan.mime])) {
      try Self.cache().negotiate([plan], target: Self.table, defaultSelect: true)
    }
    let resolved = try Self.cache(planEnabled: true).negotiate(
      [plan], target: Self.table, defaultSelect: true)
    #expect(resolved.media == plan)
    #expect(resolved.handler == .jsonArray(stripNulls: false))
  }

  @Test func vendoredTypesAloneAndUnderAPlanTakeTheBuiltInJSONHandlers() throws {
    var cache = Self.cache(planEnabled: true)
    // The relation's own handler for any type (an aggregate for `*/*`).
    cache.mediaHandlers[MediaHandlerKey(target: Self.table, media: .any)] =
      ResolvedHandler(handler: .custom(Self.custom), media: .other("application/vnd.twkb"))
    let vendored: [(MediaType, MediaHandler)] = [
      (MediaType("application/vnd.pgrst.object+json"), .jsonObject(stripNulls: false)),
      (
        MediaType("application/vnd.pgrst.object+json;nulls=stripped"), .jsonObject(stripNulls: true)
      ),
      (MediaType("application/vnd.pgrst.array+json;nulls=stripped"), .jsonArray(stripNulls: true)),
    ]
    for (media, handler) in vendored {
      // Not the relation's own handler, even for the default select.
      #expect(
        try cache.negotiate([media], target: Self.table, defaultSelect: true)
          == ResolvedHandler(handler: handler, media: media))
      let plan = MediaType.plan(for: media, format: .json, options: [])
      #expect(
        try cache.negotiate([plan], target: Self.table, defaultSelect: true)
          == ResolvedHandler(handler: handler, media: plan))
      #expect(throws: RESTError.unacceptableMediaType([plan.mime])) {
        try Self.cache().negotiate([plan], target: Self.table, defaultSelect: true)
      }
    }
    // A plan of the relation's own type takes its handler, under the plan's type.
    let twkb = MediaType.plan(for: .other("application/vnd.twkb"), format: .text, options: [])
    #expect(
      try cache.negotiate([twkb], target: Self.table, defaultSelect: true)
        == ResolvedHandler(handler: .custom(Self.custom), media: twkb))
    #expect(throws: RESTError.unacceptableMediaType([twkb.mime])) {
      try cache.negotiate([twkb], target: Self.table, defaultSelect: false)
    }
  }
}
