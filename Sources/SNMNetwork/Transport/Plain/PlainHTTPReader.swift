import Foundation
import SNMWire

/// Why a plain HTTP exchange failed, before it is worded as an ``SNMNetworkError``.
enum PlainHTTPFailure: Error, Equatable {
  case unreachable(String)
  case timedOut
  case cancelled
  /// The connection ended early; `receivedNothing` means not one byte of an answer came (a kept
  /// connection the server had closed: the request may be sent again on a new one).
  case closedEarly(receivedNothing: Bool)
  case malformed(String)
  /// The body passed the request's limit (bytes).
  case tooLarge(Int)
}

/// One HTTP answer: status, header fields as sent, the body, and whether the connection may be
/// used again.
struct PlainHTTPAnswer {
  var status: Int
  var headers: [HTTPHeaders.Field]
  var body: Data
  var keepAlive: Bool
}

/// Reads HTTP/1.1 answers from a stream of chunks with SNMWire's ``HTTPDecoder`` (the framing
/// the local project reads requests with, under one set of limits): the status line and fields,
/// then a body framed by `Content-Length`, `chunked` or the end of the stream, every size the
/// server announces checked before anything is set aside for it.
///
/// ```swift
/// var reader = PlainHTTPReader(maximumBodyBytes: 256 << 20)
/// let answer = try reader.readAnswer(isHead: false) { try connection.nextChunk() }
/// ```
/// Kept with its connection: bytes after one answer are the start of the next.
struct PlainHTTPReader {
  private var decoder: HTTPDecoder
  /// The largest body read; a larger one throws `.tooLarge`.
  let maximumBodyBytes: Int

  /// A reader that starts with `buffered`, the bytes read past the connection's last answer.
  init(buffered: [UInt8], maximumBodyBytes: Int) {
    var limits = HTTPLimits.responses
    limits.maxBodyBytes = maximumBodyBytes
    decoder = HTTPDecoder(reading: .responses, limits: limits)
    decoder.append(contentsOf: buffered)
    self.maximumBodyBytes = maximumBodyBytes
  }

  /// Bytes after the answer (a server never sends them unasked, but keep them honest).
  var unread: [UInt8] { Array(decoder.unread) }

  typealias Source = () throws(PlainHTTPFailure) -> [UInt8]

  /// Reads the next answer (interim 1xx answers skipped; no body for `isHead`).
  mutating func readAnswer(isHead: Bool, from next: Source) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    decoder.answersHEAD = isHead
    var receivedAny = !decoder.unread.isEmpty
    var head: HTTPResponseHead?
    var body = Data()
    while true {
      let part: HTTPDecoder.Part?
      do {
        part = try decoder.next()
      } catch {
        throw error.status == 413
          ? .tooLarge(maximumBodyBytes) : .malformed("the answer is not valid HTTP (\(error))")
      }
      switch part {
      case .responseHead(let started)?:
        head = started
        if case .length(let length) = started.framing {
          body.reserveCapacity(min(length, Self.largestReservation))
        }
        continue
      case .body(let bytes)?:
        body.append(contentsOf: bytes)
        continue
      case .end?:
        guard let head else { continue }
        return Self.answer(head, body)
      case .requestHead?:
        throw .malformed("the answer is not valid HTTP (a request)")
      case nil:
        break
      }
      var chunk: [UInt8]
      do {
        chunk = try next()
      } catch .closedEarly {
        chunk = []
      }
      if !chunk.isEmpty {
        receivedAny = true
        decoder.append(contentsOf: chunk)
        continue
      }
      switch decoder.finish() {
      case .complete:
        guard let head else { throw .closedEarly(receivedNothing: !receivedAny) }
        return Self.answer(head, body)
      case .idle:
        throw .closedEarly(receivedNothing: !receivedAny)
      case .inHead:
        throw .closedEarly(receivedNothing: false)
      case .inBody(let remaining?):
        throw Self.cutOff("transfer closed with \(remaining) bytes remaining to read")
      case .inBody(nil):
        throw Self.cutOff("transfer closed with outstanding read data remaining")
      }
    }
  }

  static func answer(_ head: HTTPResponseHead, _ body: Data) -> PlainHTTPAnswer {
    PlainHTTPAnswer(
      status: head.status, headers: head.headers.fields, body: body, keepAlive: head.keepAlive)
  }

  /// The most an announced `Content-Length` makes the reader set aside before the bytes arrive;
  /// a larger body grows as it comes.
  static let largestReservation = 64 << 20

  /// The server went away while the body came (it died, or its connection was cut): an answer
  /// that must not be shown, worded as curl words it.
  static func cutOff(_ detail: String) -> PlainHTTPFailure {
    .malformed("the answer was cut off (\(detail))")
  }
}
