import Foundation
import SNMWire
import Testing

@testable import SNMSupabase

/// Each Storage chain sends what storage-js and supabase-swift send: method, exact URL, the
/// headers the operation asks for, the JSON body, and for uploads and downloads the file on disk.
@Suite struct StorageRequestTests {
  static let manager = SupabaseStorageManager(
    config: SupabaseConfig(url: "http://127.0.0.1:54321/", anonKey: ""))

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable () throws -> SupabaseStorageRequest
    let method: String
    let url: String
    var headers: [String: String] = [:]
    var body: String?
    var bodyFile: String?
    var responseFile: String?
    var testDescription: String { name }
  }

  static let base = "http://127.0.0.1:54321/storage/v1"
  static let avatars = manager.from("avatars")

  static let cases: [Case] = [
    Case(
      name: "list buckets", build: { try manager.listBuckets().build() }, method: "GET",
      url: base + "/bucket"),
    Case(
      name: "create a bucket with limits",
      build: {
        try manager.createBucket(
          "avatars",
          options: .init(isPublic: true, fileSizeLimit: "5MB", allowedMimeTypes: ["image/*"])
        ).build()
      }, method: "POST", url: base + "/bucket",
      headers: ["Content-Type": "application/json"],
      body:
        #"{"id":"avatars","name":"avatars","public":true,"file_size_limit":"5MB","allowed_mime_types":["image/*"]}"#
    ),
    Case(
      name: "drop a bucket", build: { try avatars.deleteBucket().build() }, method: "DELETE",
      url: base + "/bucket/avatars"),
    Case(
      name: "empty a bucket", build: { try avatars.emptyBucket().build() }, method: "POST",
      url: base + "/bucket/avatars/empty", headers: ["Content-Type": "application/json"],
      body: "{}"),
    Case(
      name: "list a folder",
      build: {
        try avatars.list(.init(prefix: "dogs", limit: 50, search: "bo", descending: true)).build()
      }, method: "POST", url: base + "/object/list/avatars",
      headers: ["Content-Type": "application/json"],
      body:
        #"{"prefix":"dogs/","limit":50,"offset":0,"sortBy":{"column":"name","order":"desc"},"search":"bo"}"#
    ),
    Case(
      name: "upload a file, type from the name",
      build: { try avatars.setPath("dogs/bori.JPG").upload(.init(file: "/tmp/b.jpg")).build() },
      method: "POST", url: base + "/object/avatars/dogs/bori.JPG",
      headers: [
        "x-upsert": "false", "cache-control": "max-age=3600", "content-type": "image/jpeg",
      ], bodyFile: "/tmp/b.jpg"),
    Case(
      name: "upsert with a type and cache time",
      build: {
        try avatars.setPath("/a//my dog.png/").upload(
          .init(file: "f", contentType: "image/webp", upsert: true, cacheControl: 60)
        ).build()
      }, method: "POST", url: base + "/object/avatars/a/my%20dog.png",
      headers: ["x-upsert": "true", "cache-control": "max-age=60", "content-type": "image/webp"],
      bodyFile: "f"),
    Case(
      name: "download to a file",
      build: { try avatars.setPath("a.png").download(.init(destination: "out.png")).build() },
      method: "GET", url: base + "/object/avatars/a.png", responseFile: "out.png"),
    Case(
      name: "download from a public bucket",
      build: {
        try manager.from("dog-photos").setPath("a.png").download(.init(isPublic: true)).build()
      },
      method: "GET", url: base + "/object/public/dog-photos/a.png"),
    Case(
      name: "info", build: { try avatars.setPath("a.png").info().build() }, method: "GET",
      url: base + "/object/info/avatars/a.png"),
    Case(
      name: "exists", build: { try avatars.setPath("a.png").exists().build() }, method: "HEAD",
      url: base + "/object/avatars/a.png"),
    Case(
      name: "sign",
      build: { try avatars.setPath("a b.png").createSignedURL(expiresIn: 60).build() },
      method: "POST", url: base + "/object/sign/avatars/a%20b.png",
      headers: ["Content-Type": "application/json"], body: #"{"expiresIn":60}"#),
    Case(
      name: "move to another bucket",
      build: { try avatars.setPath("a.png").move(to: "b.png", bucket: "dog-photos").build() },
      method: "POST", url: base + "/object/move", headers: ["Content-Type": "application/json"],
      body:
        #"{"bucketId":"avatars","sourceKey":"a.png","destinationKey":"b.png","destinationBucket":"dog-photos"}"#
    ),
    Case(
      name: "copy", build: { try avatars.setPath("a.png").copy(to: "c/a.png").build() },
      method: "POST", url: base + "/object/copy", headers: ["Content-Type": "application/json"],
      body: #"{"bucketId":"avatars","sourceKey":"a.png","destinationKey":"c/a.png"}"#),
    Case(
      name: "remove several", build: { try avatars.remove(paths: ["a.png", "/b/c.png"]).build() },
      method: "DELETE", url: base + "/object/avatars",
      headers: ["Content-Type": "application/json"],
      body: #"{"prefixes":["a.png","b/c.png"]}"#),
  ]

  @Test(arguments: cases) func sends(_ item: Case) throws {
    let request = try item.build()
    let endpoint = request.endpoint
    #expect(endpoint.method.rawValue == item.method)
    #expect(endpoint.url == item.url)
    var headers: [String: String] = [:]
    for field in endpoint.headers { headers[field.name] = field.value }
    #expect(headers == item.headers)
    #expect(endpoint.body.map { String(decoding: $0, as: UTF8.self) } == item.body)
    #expect(endpoint.bodyFile == item.bodyFile)
    #expect(endpoint.responseFile == item.responseFile)
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable () throws -> SupabaseStorageRequest
    let message: String
    var testDescription: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(
      name: "a dot-dot segment", build: { try avatars.setPath("a/../b").info().build() },
      message: "storage path 'a/../b' has a '..' segment"),
    Refusal(
      name: "a NUL", build: { try avatars.setPath("a\u{0}b").info().build() },
      message: "storage path 'a\u{0}b' has a control character (U+0)"),
    Refusal(
      name: "no path", build: { try avatars.setPath("//").info().build() },
      message: "storage path '//' is empty"),
    Refusal(
      name: "no bucket", build: { try manager.from("").setPath("a").info().build() },
      message: "storage needs a bucket name"),
    Refusal(
      name: "a bucket with a slash", build: { try manager.from("a/b").emptyBucket().build() },
      message:
        "bucket name 'a/b' is not one Storage takes (letters, digits and _!.*'() &$=@;:+,?-)"),
    Refusal(
      name: "a zero expiry",
      build: { try avatars.setPath("a").createSignedURL(expiresIn: 0).build() },
      message: "a signed URL expires after 1 second or more, not 0"),
    Refusal(
      name: "an unknown sort", build: { try avatars.list(.init(sortColumn: "size")).build() },
      message:
        "storage listings sort by name, updated_at, created_at or last_accessed_at, not 'size'"),
    Refusal(
      name: "a bad size limit",
      build: { try manager.createBucket("x", options: .init(fileSizeLimit: "5 parsecs")).build() },
      message: "size limit '5 parsecs' is not bytes or a size such as 500KB, 5MB, 1GB"),
  ]

  @Test(arguments: refusals) func refuses(_ item: Refusal) {
    #expect(throws: SupabaseStorageError.self) { try item.build() }
    do {
      _ = try item.build()
    } catch {
      #expect((error as? SupabaseStorageError)?.description == item.message)
    }
  }

  @Test func publicURLSendsNothingAndEncodesThePath() throws {
    let url = try Self.manager.from("dog-photos").setPath("u/my dog.png")
      .publicURL(download: .named("bori.png"))
    #expect(url == Self.base + "/object/public/dog-photos/u/my%20dog.png?download=bori.png")
  }

  @Test func rendersTheChainAsSwiftAndCurl() throws {
    let request = try Self.avatars.setPath("a.png").upload(.init(file: "bori.png", upsert: true))
      .build()
    #expect(
      request.swiftChain()
        == #"try await remoteStorageManager.from("avatars").setPath("a.png").upload(.init(file: "bori.png", upsert: true)).request()"#
    )
    #expect(
      request.curlCommand(multiline: false)
        == #"curl -X POST 'http://127.0.0.1:54321/storage/v1/object/avatars/a.png' -H "apikey: $SUPABASE_ANON_KEY" -H "Authorization: Bearer $TOKEN" -H 'x-upsert: true' -H 'cache-control: max-age=3600' -H 'content-type: image/png' --data-binary '@bori.png'"#
    )
    let explained = request.explainJSON()
    #expect(explained["path"]?.stringValue == "/storage/v1/object/avatars/a.png")
    #expect(explained["upload"]?.stringValue == "bori.png")
  }

  @Test func anUnreadableFileIsRefusedBeforeSending() throws {
    let request = try Self.avatars.setPath("a.png").upload(.init(file: "/nonexistent/x.png"))
      .build()
    #expect(
      throws: SupabaseStorageError.unreadableFile("/nonexistent/x.png", reason: "no such file")
    ) {
      try request.sendableEndpoint()
    }
  }

  @Test func contentTypesComeFromTheLastExtension() {
    #expect(StorageContentType.forName("a/b.tar.gz") == "application/gzip")
    #expect(StorageContentType.forName("a.b/noext") == "application/octet-stream")
    #expect(StorageContentType.forName(".hidden") == "application/octet-stream")
    #expect(StorageContentType.forName("x.WEBP") == "image/webp")
  }
}
