import Foundation
import SNMWire

@testable import SNMGateway
@testable import SNMNetwork

/// libFuzzer entry for the HTTP/1.1 framing both sides share (SNMWire's `HTTPDecoder`), on
/// arbitrary bytes as what one connection sends, in both directions: as requests to the
/// gateway's reader (request line, header fields, Content-Length and chunked bodies, limits) and
/// as answers to the client's plain-socket reader (status line, 1xx, HEAD, bodies framed by the
/// end of the stream, every announced size capped).
///
/// The bytes are read twice each way: all at once, and in pieces whose sizes come from the input,
/// the way `recv` may split them. Fails (traps) when the two disagree, when a message breaks a
/// limit, or when a refusal is not a 4xx/5xx. Built and run by `scripts/fuzz run http`.
@_cdecl("LLVMFuzzerTestOneInput")
public func httpFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var limits = HTTPLimits.requests
  limits.maxStartLineBytes = 512
  limits.maxHeaderBytes = 1024
  limits.maxHeaderCount = 16
  limits.maxBodyBytes = 2048
  let pieceSizes = bytes.prefix(8).map { Int($0 % 17) + 1 }
  let whole = HTTPFuzzFeed.steps(bytes, pieceSizes: [], limits: limits)
  let pieces = HTTPFuzzFeed.steps(bytes, pieceSizes: pieceSizes, limits: limits)
  fuzzCheck(whole == pieces, "pieces parse differently: \(whole) vs \(pieces)")
  for step in whole {
    switch step {
    case .request(let request, _):
      fuzzCheck(request.body.count <= limits.maxBodyBytes, "body over the limit")
      fuzzCheck(request.path.utf8.count <= limits.maxStartLineBytes, "target over the limit")
      _ = request.rawQueryItems
      _ = request.queryValue("apikey")
      _ = PercentEncoding.decode(request.path, plusIsSpace: false)
      _ = RequestAuth.bearerToken(request.headers["Authorization"] ?? "")
      let response = HTTPResponse.json(status: 200, #"{"ok":true}"#)
      _ = HTTPResponseWriter.serialize(
        response, keepAlive: true, bodyless: request.method == "HEAD")
    case .failure(let failure):
      fuzzCheck((400..<600).contains(failure.status), "refusal with status \(failure.status)")
      _ = HTTPResponseWriter.serialize(
        HTTPResponseWriter.failure(failure), keepAlive: false, bodyless: false)
    case .streamed, .answered, .planning, .flushing:
      fuzzCheck(false, "a body planned with no planner")
    case .needMore:
      break
    }
  }
  // The same bytes as a server's answers; an odd length says they answer a HEAD (the first
  // byte would, but an answer starts with `H` and a HEAD would then never be read).
  let toHEAD = bytes.count & 1 == 1
  let answers = HTTPFuzzFeed.answers(bytes, pieceSizes: [], toHEAD: toHEAD)
  let answerPieces = HTTPFuzzFeed.answers(bytes, pieceSizes: pieceSizes, toHEAD: toHEAD)
  fuzzCheck(answers == answerPieces, "answers read differently: \(answers) vs \(answerPieces)")
  for answer in answers {
    guard case .answer(let status, _, let body) = answer else { continue }
    fuzzCheck(body <= HTTPFuzzFeed.answerLimit, "answer body over the limit")
    fuzzCheck(status >= 200 && status <= 999, "interim or bad status \(status)")
    fuzzCheck(!toHEAD || body == 0, "an answer to HEAD with a body")
  }
  return 0
}

enum HTTPFuzzFeed {
  /// The steps the reader takes over `bytes`, fed in pieces of the given sizes (cycled), or whole.
  /// Stops at the first failure, as the connection closes then.
  static func steps(
    _ bytes: [UInt8], pieceSizes: [Int], limits: HTTPLimits
  ) -> [HTTPRequestReader.Step] {
    var reader = HTTPRequestReader(limits: limits)
    var steps: [HTTPRequestReader.Step] = []
    feed(bytes, pieceSizes: pieceSizes) { piece in
      piece.withUnsafeBufferPointer { reader.append($0) }
      while true {
        let step = reader.next()
        if case .needMore = step { return true }
        steps.append(step)
        if case .failure = step { return false }
      }
    }
    return steps
  }

  /// The most the client takes of one answer's body here.
  static let answerLimit = 2048

  /// What the client's reader makes of `bytes` as a server's answers on one connection: each
  /// answer's status, fields and body size, then the failure that ended the reading.
  enum Answer: Equatable {
    case answer(status: Int, fields: [HTTPHeaders.Field], body: Int)
    case failed(PlainHTTPFailure)
  }

  static func answers(_ bytes: [UInt8], pieceSizes: [Int], toHEAD: Bool) -> [Answer] {
    var pieces: [ArraySlice<UInt8>] = []
    feed(bytes, pieceSizes: pieceSizes) { piece in
      pieces.append(piece)
      return true
    }
    var next = 0
    var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: answerLimit)
    var answers: [Answer] = []
    while true {
      do {
        let answer = try reader.readAnswer(isHead: toHEAD) {
          () throws(PlainHTTPFailure) -> [UInt8] in
          guard next < pieces.count else { return [] }
          next += 1
          return Array(pieces[next - 1])
        }
        answers.append(
          .answer(status: answer.status, fields: answer.headers, body: answer.body.count))
      } catch {
        answers.append(.failed(error))
        return answers
      }
    }
  }

  /// Hands `bytes` to `take` in pieces of the given sizes (cycled), or whole, until it says stop;
  /// false when it did.
  @discardableResult
  static func feed(_ bytes: [UInt8], pieceSizes: [Int], _ take: (ArraySlice<UInt8>) -> Bool)
    -> Bool
  {
    var offset = 0
    var piece = 0
    while offset < bytes.count {
      let size = pieceSizes.isEmpty ? bytes.count : pieceSizes[piece % pieceSizes.count]
      piece += 1
      let end = min(bytes.count, offset + size)
      guard take(bytes[offset..<end]) else { return false }
      offset = end
    }
    return true
  }
}
