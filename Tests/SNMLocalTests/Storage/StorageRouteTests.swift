import Testing

@testable import SNMLocal
@testable import SNMLocalStorage

/// Paths reach the routes Supabase Storage gives them, static segments first, the object name
/// percent-decoded; and names that would climb out of a folder are invalid keys.
@Suite struct StorageRouteTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let route: StorageRoute
    var testDescription: String { "\(method) \(path)" }
  }

  static let cases: [Case] = [
    Case(method: "GET", path: "/storage/v1/bucket", route: .listBuckets),
    Case(method: "GET", path: "/storage/v1/bucket/avatars", route: .getBucket("avatars")),
    Case(method: "POST", path: "/storage/v1/bucket/a/empty", route: .emptyBucket("a")),
    Case(method: "DELETE", path: "/storage/v1/bucket/a", route: .deleteBucket("a")),
    Case(
      method: "POST", path: "/storage/v1/object/avatars/a/b%20c.png",
      route: .upload(bucket: "avatars", name: "a/b c.png", upsert: false)),
    Case(
      method: "PUT", path: "/storage/v1/object/avatars/a.png",
      route: .upload(bucket: "avatars", name: "a.png", upsert: true)),
    Case(
      method: "GET", path: "/storage/v1/object/avatars/a.png",
      route: .download(bucket: "avatars", name: "a.png", access: .any)),
    Case(
      method: "GET", path: "/storage/v1/object/public/p/a.png",
      route: .download(bucket: "p", name: "a.png", access: .public)),
    Case(
      method: "GET", path: "/storage/v1/object/authenticated/p/a.png",
      route: .download(bucket: "p", name: "a.png", access: .authenticated)),
    Case(
      method: "HEAD", path: "/storage/v1/object/p/a.png",
      route: .head(bucket: "p", name: "a.png", access: .any)),
    Case(
      method: "GET", path: "/storage/v1/object/info/public/p/a.png",
      route: .info(bucket: "p", name: "a.png", access: .public)),
    Case(
      method: "GET", path: "/storage/v1/object/info/p/a.png",
      route: .info(bucket: "p", name: "a.png", access: .any)),
    Case(
      method: "GET", path: "/storage/v1/object/sign/p/a.png",
      route: .signedDownload(bucket: "p", name: "a.png")),
    Case(
      method: "POST", path: "/storage/v1/object/sign/p/a.png",
      route: .sign(bucket: "p", name: "a.png")),
    Case(method: "POST", path: "/storage/v1/object/sign/p", route: .signMany(bucket: "p")),
    Case(
      method: "POST", path: "/storage/v1/object/upload/sign/p/a.png",
      route: .signUpload(bucket: "p", name: "a.png")),
    Case(
      method: "PUT", path: "/storage/v1/object/upload/sign/p/a.png",
      route: .uploadSigned(bucket: "p", name: "a.png")),
    Case(method: "POST", path: "/storage/v1/object/list/p", route: .list(bucket: "p")),
    Case(method: "POST", path: "/storage/v1/object/list-v2/p", route: .listV2(bucket: "p")),
    Case(method: "DELETE", path: "/storage/v1/object/p", route: .removeMany(bucket: "p")),
    Case(
      method: "DELETE", path: "/storage/v1/object/p/a%2Fb",
      route: .remove(bucket: "p", name: "a/b")),
    Case(method: "POST", path: "/storage/v1/object/move", route: .move),
    Case(method: "POST", path: "/storage/v1/object/copy", route: .copy),
    Case(method: "GET", path: "/storage/v1/object/p", route: .notFound),
    Case(method: "PATCH", path: "/storage/v1/object/p/a", route: .notFound),
    Case(method: "GET", path: "/storage/v1/nothing", route: .notFound),
  ]

  @Test(arguments: cases) func routes(_ item: Case) {
    #expect(StorageRoute(method: item.method, path: item.path) == item.route)
  }

  @Test(arguments: [
    "../x", "a/../../x", "./x", "a/./b", "/etc/passwd", "a\u{0}b", "", "..", "a/..",
    "도그.png", "a\u{7f}",
  ])
  func refusesKeysThatAreNoPlainRelativePath(_ name: String) {
    #expect(throws: StorageFailure.self) { try StorageKey.object(name) }
  }

  @Test(arguments: ["a.png", "dogs/bori.jpg", "a b/(1)!.png", "x//y", "...", "a..b", ".hidden"])
  func takesStorageKeys(_ name: String) throws {
    #expect(try StorageKey.object(name) == name)
  }

  @Test func bucketNamesHaveNoSlashAndAtMost100Characters() throws {
    #expect(try StorageKey.bucket("dog-photos") == "dog-photos")
    #expect(throws: StorageFailure.self) { try StorageKey.bucket("a/b") }
    #expect(throws: StorageFailure.self) {
      try StorageKey.bucket(String(repeating: "a", count: 101))
    }
  }

  @Test func namesAreAt1024BytesAndLookupsOfNamesNoObjectCouldHaveAreRefused() throws {
    let longest = String(repeating: "n", count: 1020) + ".png"
    #expect(try StorageKey.object(longest) == longest)
    #expect(throws: StorageFailure.self) { try StorageKey.object("x" + longest) }
    try StorageKey.lookup(longest)
    try StorageKey.lookup("도그/")
    for refused in ["x" + longest, "a\u{0}b"] {
      #expect(throws: StorageFailure.self) { try StorageKey.lookup(refused) }
    }
    try StorageKey.bucketLookup("any bucket")
    for refused in [String(repeating: "b", count: 101), "x\u{0}y"] {
      #expect(throws: StorageFailure.self) { try StorageKey.bucketLookup(refused) }
    }
  }

  @Test func aBucketAdmitsWhatAnUploadCouldPut() throws {
    let bucket = try #require(StorageBucketRow(["b", "f", "100", "{image/*}"]))
    try bucket.admit(size: 100, type: "image/png", name: "a.png", globalLimit: 1000)
    #expect(throws: StorageFailure.entityTooLarge()) {
      try bucket.admit(size: 101, type: "image/png", name: "a.png", globalLimit: 1000)
    }
    #expect(throws: StorageFailure.invalidMimeType("text/html")) {
      try bucket.admit(size: 1, type: "text/html", name: "a.png", globalLimit: 1000)
    }
    #expect(throws: StorageFailure.entityTooLarge()) {
      try bucket.admit(size: 60, type: "image/png", name: "a.png", globalLimit: 50)
    }
    try bucket.admit(
      size: 0, type: "text/plain", name: "f/.emptyFolderPlaceholder", globalLimit: 50)
  }

  @Test func errorsAnswerHTTP400WithTheRealStatusInTheBody() {
    let response = StorageFailure.noSuchKey("a").response
    #expect(response.status == 400)
    #expect(
      String(decoding: response.body, as: UTF8.self)
        == #"{"statusCode":"404","code":"NoSuchKey","error":"not_found","message":"Object not found"}"#
    )
    #expect(StorageFailure.internalError().response.status == 500)
    #expect(StorageFailure.invalidRange.response.status == 416)
  }

  @Test func byteRangesAsStorageParsesThem() {
    #expect(StorageGateway.byteRange("bytes=0-9", size: 100)! == (0, 9))
    #expect(StorageGateway.byteRange("bytes=90-", size: 100)! == (90, 99))
    #expect(StorageGateway.byteRange("bytes=-10", size: 100)! == (90, 99))
    #expect(StorageGateway.byteRange("bytes=95-200", size: 100)! == (95, 99))
    #expect(StorageGateway.byteRange("bytes=100-", size: 100) == nil)
    #expect(StorageGateway.byteRange("bytes=5-2", size: 100) == nil)
    #expect(StorageGateway.byteRange("items=0-1", size: 100) == nil)
  }

  @Test func sizesAsStorageAndTheCLIWriteThem() {
    #expect(StorageGateway.parseSize("5MB") == 5_000_000)
    #expect(StorageGateway.parseSize("1.5GB") == 1_500_000_000)
    #expect(StorageGateway.parseSize("300") == 300)
    #expect(StorageGateway.parseSize("5 MB") == nil)
    #expect(LocalProjectOptions.parseSize("50MiB") == 52_428_800)
    #expect(LocalProjectOptions.parseSize("2GiB") == 2_147_483_648)
  }
}
