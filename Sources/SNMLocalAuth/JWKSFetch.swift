import CCurl
import Foundation

/// Reads a provider's JWKS where the project's config says it is: a file, or an `https://` URL
/// fetched with libcurl (GoTrue reaches providers over HTTPS only). The CA certificates are the
/// system's, or the PEM file in `SSL_CERT_FILE` when the project was started with it (a test's
/// private CA).
///
/// ```swift
/// let bytes = try JWKSFetch.read("https://idp.example.com/keys")   // throws JWKSFetch.Failure
/// ```
package enum JWKSFetch {
  /// Why the keys could not be read; logged nowhere, answered as GoTrue answers ("Bad ID token").
  package struct Failure: Error, Equatable {
    package let reason: String
  }

  /// The largest JWKS read (a provider's set is a few KiB).
  static let maximumBytes = 1 << 20

  /// The bytes at `source`: an `https://` URL, else a file path.
  package static func read(_ source: String) throws(Failure) -> [UInt8] {
    if source.hasPrefix("https://") { return try fetch(source) }
    guard let data = FileManager.default.contents(atPath: source) else {
      throw Failure(reason: "cannot read \(source)")
    }
    guard data.count <= maximumBytes else { throw Failure(reason: "\(source) is too large") }
    return Array(data)
  }

  /// Collects the body libcurl hands over.
  final class Body {
    var bytes: [UInt8] = []
  }

  /// `GET url` over HTTPS, 10 s at most, no redirects; the body of a 200 answer.
  static func fetch(_ url: String) throws(Failure) -> [UInt8] {
    if let missing = snm_libcurl_load() {
      throw Failure(reason: "\(String(cString: missing)) (https:// needs libcurl4)")
    }
    _ = globalInit
    guard let easy = curl_easy_init() else { throw Failure(reason: "libcurl cannot start") }
    defer { curl_easy_cleanup(easy) }
    let body = Body()
    let context = Unmanaged.passUnretained(body).toOpaque()
    var code = CURLE_OK
    func set(_ step: () -> CURLcode) {
      if code == CURLE_OK { code = step() }
    }
    set { snm_curl_set_pointer(easy, CURLOPT_URL, url) }
    set { snm_curl_set_long(easy, CURLOPT_NOSIGNAL, 1) }
    set { snm_curl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, "https") }
    set { snm_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0) }
    set { snm_curl_set_long(easy, CURLOPT_TIMEOUT_MS, 10_000) }
    set { snm_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumBytes)) }
    set { snm_curl_set_callback(easy, CURLOPT_WRITEFUNCTION, jwksWriteBody) }
    set { snm_curl_set_pointer(easy, CURLOPT_WRITEDATA, context) }
    if let authorities = ProcessInfo.processInfo.environment["SSL_CERT_FILE"],
      !authorities.isEmpty
    {
      set { snm_curl_set_pointer(easy, CURLOPT_CAINFO, authorities) }
    }
    if code == CURLE_OK { code = withExtendedLifetime(body) { curl_easy_perform(easy) } }
    guard code == CURLE_OK else {
      throw Failure(reason: String(cString: curl_easy_strerror(code)))
    }
    var status = 0
    _ = snm_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
    guard status == 200 else { throw Failure(reason: "answered \(status)") }
    return body.bytes
  }

  /// `curl_global_init` once per process.
  private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// `CURLOPT_WRITEFUNCTION`: appends to the ``JWKSFetch/Body``; past the limit, stops.
private func jwksWriteBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let body = Unmanaged<JWKSFetch.Body>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  guard body.bytes.count + length <= JWKSFetch.maximumBytes else { return 0 }
  body.bytes += UnsafeBufferPointer(
    start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
  return length
}
