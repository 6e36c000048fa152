import Foundation
import SNMNetwork
import SNMWire

/// A successful Storage answer, decoded for its operation.
///
/// ```swift
/// let response = try await remoteStorageManager.from("avatars").setPath("a/bori.jpg")
///   .createSignedURL(expiresIn: 60).request()
/// response.signedURL   // http://127.0.0.1:54321/storage/v1/object/sign/avatars/a/bori.jpg?token=...
/// response.status      // 200
/// ```
public struct SupabaseStorageResponse: Sendable, Hashable {
  public let request: SupabaseStorageRequest
  /// The answer as received (its body empty when a download went to a file).
  public let response: SNMResponse
  /// The JSON answer: buckets, a listing, the removed objects, an object's info, `{"Key": ...}`
  /// for an upload; `.null` for `exists` and downloads.
  public let value: JSONValue
  /// `createSignedURL`: the whole URL (Storage answers a path relative to `/storage/v1`), with
  /// `download` added when asked.
  public let signedURL: String?
  /// `exists`: whether the object is there.
  public let exists: Bool?
  /// A download into a file: where it went and how many bytes.
  public let savedFile: SavedFile?

  /// A download that went to disk.
  public struct SavedFile: Sendable, Hashable {
    public let path: String
    public let bytes: Int64
  }

  /// The HTTP status.
  public var status: Int { response.status }

  /// A download's bytes when kept in memory (empty when it went to a file).
  public var data: Data { response.body }

  /// The object's MIME type, from a download's `Content-Type`.
  public var contentType: String? { response.headers["Content-Type"] }

  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when a JSON answer is not JSON,
  ///   or a signed URL answer has no `signedURL`.
  init(request: SupabaseStorageRequest, response: SNMResponse) throws(SNMNetworkError) {
    self.request = request
    self.response = response
    var signedURL: String?
    var exists: Bool?
    var savedFile: SavedFile?
    var value = JSONValue.null
    switch request.operation {
    case .download:
      // The whole object was asked for: a part of it (206, or any other 2xx) is no download.
      guard response.status == 200 else {
        throw .malformedResponse(
          url: response.url,
          reason: "a \(response.status) answer to a download of the whole object (not saved)")
      }
      if let path = response.savedPath {
        savedFile = SavedFile(path: path, bytes: response.savedBytes)
      }
    case .exists:
      exists = true
    case .createSignedURL(_, let download):
      value = try response.json()
      guard let relative = value["signedURL"]?.stringValue ?? value["signedUrl"]?.stringValue else {
        throw .malformedResponse(url: response.url, reason: "the answer has no signedURL")
      }
      var url = request.storageURL + (relative.hasPrefix("/") ? relative : "/" + relative)
      if let download {
        url +=
          (url.contains("?") ? "&" : "?") + "download="
          + PercentEncoding.encode(download.queryValue)
      }
      signedURL = url
    default:
      value = try response.json()
    }
    self.value = value
    self.signedURL = signedURL
    self.exists = exists
    self.savedFile = savedFile
  }

  /// `exists` for an object that is not there (Storage's 400 or 404 to a HEAD).
  init(missing request: SupabaseStorageRequest, response: SNMResponse) {
    self.request = request
    self.response = response
    value = .null
    signedURL = nil
    exists = false
    savedFile = nil
  }
}
