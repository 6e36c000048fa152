import SNMWire

@testable import SNMLocal

/// libFuzzer entry for the gateway's HTTP/1.1 request parser (request line, header fields,
/// Content-Length and chunked bodies, limits), on arbitrary bytes as what one connection sends.
///
/// The bytes are parsed twice: all at once, and in pieces whose sizes come from the input, the way
/// `recv` may split them. Fails (traps) when the two disagree, when a request breaks a limit, or when
/// a refusal is not a 4xx/5xx. Built and run by `scripts/fuzz run http-request`.
@_cdecl("LLVMFuzzerTestOneInput")
public func httpRequestFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var limits = HTTPServerLimits()
  limits.maxRequestLineBytes = 512
  limits.maxHeaderBytes = 1024
  limits.maxHeaderCount = 16
  limits.maxBodyBytes = 2048
  let whole = HTTPFuzzFeed.steps(bytes, pieceSizes: [], limits: limits)
  let pieces = HTTPFuzzFeed.steps(
    bytes, pieceSizes: bytes.prefix(8).map { Int($0 % 17) + 1 }, limits: limits)
  fuzzCheck(whole == pieces, "pieces parse differently: \(whole) vs \(pieces)")
  for step in whole {
    switch step {
    case .request(let request, _):
      fuzzCheck(request.body.count <= limits.maxBodyBytes, "body over the limit")
      fuzzCheck(request.path.utf8.count <= limits.maxRequestLineBytes, "target over the limit")
      _ = request.rawQueryItems
      _ = request.queryValue("apikey")
      _ = PercentEncoding.decode(request.path, plusIsSpace: false)
      _ = Router.bearerToken(request.headers["Authorization"] ?? "")
      let response = HTTPResponse.json(status: 200, #"{"ok":true}"#)
      _ = HTTPResponseWriter.serialize(
        response, keepAlive: true, bodyless: request.method == "HEAD")
    case .failure(let failure):
      fuzzCheck((400..<600).contains(failure.status), "refusal with status \(failure.status)")
      _ = HTTPResponseWriter.serialize(
        HTTPResponseWriter.failure(failure), keepAlive: false, bodyless: false)
    case .needMore:
      break
    }
  }
  return 0
}

enum HTTPFuzzFeed {
  /// The steps the reader takes over `bytes`, fed in pieces of the given sizes (cycled), or whole.
  /// Stops at the first failure, as the connection closes then.
  static func steps(
    _ bytes: [UInt8], pieceSizes: [Int], limits: HTTPServerLimits
  ) -> [HTTPRequestReader.Step] {
    var reader = HTTPRequestReader(limits: limits)
    var steps: [HTTPRequestReader.Step] = []
    var offset = 0
    var piece = 0
    while offset < bytes.count {
      let size = pieceSizes.isEmpty ? bytes.count : pieceSizes[piece % pieceSizes.count]
      piece += 1
      let end = min(bytes.count, offset + size)
      bytes[offset..<end].withUnsafeBufferPointer { reader.append($0) }
      offset = end
      while true {
        let step = reader.next()
        if case .needMore = step { break }
        steps.append(step)
        if case .failure = step { return steps }
      }
    }
    return steps
  }
}
