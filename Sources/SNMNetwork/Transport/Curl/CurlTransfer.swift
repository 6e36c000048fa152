import CCurl
import Foundation
import SNMWire

/// What one curl transfer gathers (status, fields, body, curl's error text), and the options that
/// start it. Used only by the thread running the transfer; the C callbacks reach it through their
/// context pointer.
///
/// The body is read as the plain transport reads it (``ArrivingBody``): checked as JSON as it
/// arrives, a 2xx answer's elements handed to the request's consumer, and a 2xx array of rows
/// that may spill goes on in a temporary file past the spill's bound.
final class CurlTransfer {
  var status = 0
  var headers: [HTTPHeaders.Field] = []
  /// The body so far (made at its first byte, for the status then known).
  var body: ArrivingBody?
  /// Whether any line of an answer's head arrived.
  var receivedHead = false
  /// The body could not be taken (too large, its spill not written): the transfer stopped.
  var bodyFailure: PlainHTTPFailure?
  var osError: Int32 = 0
  /// How many connections libcurl made for a transfer that failed (`CURLINFO_NUM_CONNECTS`): 0
  /// when it went out on a kept one.
  var connectionsMade = 0
  /// The largest body held in memory.
  let maximumBodyBytes: Int
  /// Takes a 2xx body's elements as they are checked, and may let it spill (the sending task's).
  let arriving: ArrivingElements?
  /// The largest body taken at all: a spill's limit when the request may spill
  /// (`CURLOPT_MAXFILESIZE_LARGE`, which refuses a larger announced length at once).
  var mostBytes: Int { max(maximumBodyBytes, arriving?.spill?.mostBytes ?? maximumBodyBytes) }
  /// The body sent from disk, and how far it has been read.
  var bodyFile: RequestBodyFile?
  var bodyOffset: Int64 = 0
  /// The request body's length as handed to libcurl (from memory or a file); nil without one.
  private var bodyLength: Int64?
  /// Whether the head being read is HTTP/2's (libcurl writes its status line `HTTP/2 413`).
  private var headIsHTTP2 = false
  /// The answer came while the request's body still went out (``SNMResponse/EarlyAnswer``,
  /// ``answeredEarly()``), and the length its head named (nil: none).
  private(set) var earlyAnswer: SNMResponse.EarlyAnswer?
  private var earlyAnswerLength: Int64?
  /// The status of a 2xx HTTP/2 answer whose head ended while the request's body still went out
  /// (``noteEarlyAnswer()``): libcurl sends on, and a server that reads no more of the body
  /// leaves the transfer to time out, which says the answer came
  /// (``SNMNetworkError/timedOut(url:seconds:answered:)``).
  private(set) var earlySuccess: Int?
  /// The status of an answer libcurl kept to itself (``droppedAnswer(status:)``).
  private(set) var droppedStatus: Int?
  /// Where a 200 body goes (once the status line says 200), and the writer for it.
  var saveTo: String?
  var writer: BesideFile?
  /// The status of the head being read (the final one once the body comes).
  var headStatus = 0
  /// The answer holds a secret (``TransportRequest/holdsSecrets``): its body's memory is zeroed
  /// when let go.
  var holdsSecrets = false
  /// A local file failed: the transfer stopped for it.
  var fileFailure: TransportFileError?
  /// Whether the request may write (``TransportRequest/maySendAgain`` is false: a write, a
  /// function's call; `storage ls` is a POST that reads): sent once. libcurl sends a request
  /// again on a new connection when an HTTP/2 server resets its stream with REFUSED_STREAM (up to
  /// 5 times, a POST too) or HTTP_1_1_REQUIRED (over HTTP/1.1), and when a kept connection closes
  /// with nothing answered; snm lets it for a read (after REFUSED_STREAM, which the server did not
  /// process, RFC 9113 §8.7, after a pause: ``willSend()``), and stops it for a write.
  private(set) var writes = false
  /// What the request does (``TransportRequest/sentEffect``): a failure before any of the
  /// answer is worded by it (``TransportRequest/unansweredReason(_:)``), not by `writes`.
  private(set) var effect = Endpoint.Effect.reads
  /// The error code of the GOAWAY the server closed the connection with (libcurl's note
  /// "recveived GOAWAY, error=11, last_stream=0"), for the failure's words: one of the
  /// connection the request went out on (a kept one's, read while libcurl judged it, is dropped
  /// when the request goes out on another: ``willSend()``).
  private(set) var goawayError: UInt32?
  /// `CURLINFO_NUM_CONNECTS` when the GOAWAY's note came: the connections made by then.
  private var connectionsAtGoaway = 0
  /// The last stream the GOAWAY says the server may have processed ("last_stream=1"); those
  /// above it it did not (RFC 9113 §6.8).
  private var goawayLastStream: UInt32?
  /// The stream the request went out on (libcurl's note "Using Stream ID: 3 (easy handle ...)"),
  /// read for a write, whose notes are read from the start.
  private var streamID: UInt32?
  /// Whether libcurl was handed the request's body to send on a stream the server had closed
  /// (its note "stream 1 closed", `CURLE_HTTP2_STREAM` with no words): libcurl 7.88 then drops
  /// whatever answer came first (a 413 and a RST_STREAM NO_ERROR at the head, as nginx and Envoy
  /// answer an upload past their limit, RFC 9113 §8.1).
  private(set) var closedWhileSending = false
  /// Whether this is the request sent once more on a new connection after the server said it
  /// had not processed it (``CurlTransport/mayResend(_:after:transfer:)``): its failure says so.
  var isResend = false
  /// Whether the transfer is cancelled (``CurlHandle/cancel()``): a pause before a resend ends.
  var isCancelled: () -> Bool = { false }
  /// Whether libcurl's notes are read now (`CURLOPT_VERBOSE`, ``readNote(_:)``).
  private var readingNotes = false
  /// How many times libcurl began to send the request (`CURLOPT_PREREQFUNCTION`).
  private(set) var sends = 0
  /// The HTTP/2 error code of the reset after which libcurl would have sent a write again.
  private(set) var resendStopped: UInt32?
  /// The reset after which libcurl would have sent the request again but could not read its
  /// body from the file again (`CURLE_SEND_FAIL_REWIND`, "necessary data rewind wasn't
  /// possible": the read callback reads on, from where it is).
  var unrewoundReset: UInt32? { resetBeforeResend }
  /// Whether libcurl would have sent a write again after the connection it went out on closed
  /// with nothing of an answer, no reset seen (libcurl: "Connection died, retrying a fresh
  /// connect", for a kept connection): the server may have applied it.
  private(set) var unansweredWriteStopped = false
  /// The reset after which libcurl noted (`CURLINFO_TEXT`) it sends
  /// the request again: REFUSED_STREAM (7), HTTP_1_1_REQUIRED (13, "Downgrades to HTTP/1.1").
  private var resetBeforeResend: UInt32?
  /// The bytes of the head being read past its status line's text (line ends included), whether
  /// a head's status line came, and whether the final head ended (the lines after it are
  /// trailers, which the framing reads).
  private var headBytes = 0
  private var inHead = false
  private var finalHeadEnded = false
  /// The chunk framing of an answer in chunks, read as the plain transport reads it.
  private var framing: CurlChunkFraming?
  /// The handle the transfer runs on (set by `configure`), for the options a head turns on.
  private var easy: UnsafeMutableRawPointer?
  /// `CURLOPT_ERRORBUFFER`: curl's own words for a failure.
  private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

  init(maximumBodyBytes: Int, arriving: ArrivingElements? = nil) {
    self.maximumBodyBytes = maximumBodyBytes
    self.arriving = arriving
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    errorBuffer.deallocate()
  }

  /// curl's message for the last failure ("SSL certificate problem: ..."), or "".
  var errorText: String { String(cString: errorBuffer) }

  /// Sets every option of `request` on `easy` (just reset); `headers` receives the list to free
  /// once the transfer is over.
  func configure(
    _ easy: UnsafeMutableRawPointer, for request: TransportRequest, certificateAuthorities: String?,
    headers: inout UnsafeMutablePointer<curl_slist>?
  ) -> CURLcode {
    let context = Unmanaged.passUnretained(self).toOpaque()
    self.easy = easy
    var fields = request.fields.map { HTTPEncoder.fieldLine(name: $0.name, value: $0.value) }
    // Only what the request names goes out: curl's own Accept, the form Content-Type it gives a
    // POST, and Expect: 100-continue are removed (an empty value removes a field).
    for name in ["Accept", "Content-Type"]
    where !request.fields.contains(where: { field in
      field.name.caseInsensitiveCompare(name) == .orderedSame
    }) {
      fields.append(name + ":")
    }
    fields.append("Expect:")
    for line in fields { headers = curl_slist_append(headers, line) }
    let milliseconds = Int(min(max(request.timeout, 0.001) * 1000, Double(Int32.max)).rounded(.up))
    var code = CURLE_OK
    func set(_ step: () -> CURLcode) {
      if code == CURLE_OK { code = step() }
    }
    set { snm_curl_set_pointer(easy, CURLOPT_URL, request.url) }
    set { snm_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) }
    set { snm_curl_set_long(easy, CURLOPT_NOSIGNAL, 1) }
    set { snm_curl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https") }
    set { snm_curl_set_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) }
    set { snm_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0) }
    // An HTTPS proxy's answer to CONNECT (`https_proxy`) is no head of the server's: handed to
    // `readHeader` it was taken for the final head, and the server's was passed over.
    set { snm_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1) }
    set { snm_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds) }
    set { snm_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds) }
    if request.responseFile == nil {
      set { snm_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(mostBytes)) }
    }
    // Every decoding libcurl has (gzip, deflate, br, zstd): a hosted gateway compresses.
    set { snm_curl_set_pointer(easy, CURLOPT_ACCEPT_ENCODING, "") }
    set { snm_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headers) }
    set { snm_curl_set_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteBody) }
    set { snm_curl_set_pointer(easy, CURLOPT_WRITEDATA, context) }
    set { snm_curl_set_callback(easy, CURLOPT_HEADERFUNCTION, curlReadHeader) }
    set { snm_curl_set_pointer(easy, CURLOPT_HEADERDATA, context) }
    set { snm_curl_set_prereq_callback(easy, curlWillSend) }
    set { snm_curl_set_pointer(easy, CURLOPT_PREREQDATA, context) }
    writes = !request.maySendAgain
    effect = request.sentEffect
    // libcurl tells a REFUSED_STREAM it sends again after (a read's kept connection the server
    // had closed it sends again so too, as the plain transport does) and a GOAWAY's code only in its
    // notes: read until the answer's first line, a write's from the start (it must not miss a
    // reset), a read's from its send on a new connection and once it went out on a kept one
    // (``willSend()``, ``performed()``: libcurl's notes of the fields it sends cost a read over
    // HTTP/2 a sixteenth more).
    set { snm_curl_set_debug_callback(easy, curlReadRaw) }
    set { snm_curl_set_pointer(easy, CURLOPT_DEBUGDATA, context) }
    if writes {
      set { snm_curl_set_long(easy, CURLOPT_VERBOSE, 1) }
      readingNotes = true
    }
    if let certificateAuthorities {
      set { snm_curl_set_pointer(easy, CURLOPT_CAINFO, certificateAuthorities) }
    }
    // The method and the body: POST, PUT and PATCH always carry one (an empty one included, so
    // `Content-Length: 0` goes out, as on the plain path).
    switch request.method {
    case .get: set { snm_curl_set_long(easy, CURLOPT_HTTPGET, 1) }
    case .head: set { snm_curl_set_long(easy, CURLOPT_NOBODY, 1) }
    case .post: set { snm_curl_set_long(easy, CURLOPT_POST, 1) }
    case .put, .patch, .delete, .options:
      set { snm_curl_set_pointer(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue) }
    }
    if let bodyFile {
      bodyLength = bodyFile.length
      // The body is read from disk as curl sends it (the read callback), never whole in memory.
      set { snm_curl_set_callback(easy, CURLOPT_READFUNCTION, curlReadBody) }
      set { snm_curl_set_pointer(easy, CURLOPT_READDATA, context) }
      if request.method == .post {
        set { snm_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyFile.length)) }
      } else {
        set { snm_curl_set_long(easy, CURLOPT_UPLOAD, 1) }
        set { snm_curl_set_offset(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(bodyFile.length)) }
      }
    } else if request.body != nil || [.post, .put, .patch].contains(request.method) {
      let body = request.body ?? Data()
      bodyLength = Int64(body.count)
      set { snm_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)) }
      // COPYPOSTFIELDS copies the bytes, so the body need not outlive this call.
      // (An empty body is given one byte of storage, of which curl copies none.)
      let storage = body.isEmpty ? Data([0]) : body
      set {
        storage.withUnsafeBytes {
          snm_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
        }
      }
    }
    return code
  }

  /// One line of an answer's head (status line, field, or the empty line that ends it). A status
  /// line starts a new head: an interim answer's fields are dropped. A status line the plain
  /// decoder refuses is refused (false: the transfer stops) in its words: libcurl reads a status
  /// of `200\tOK` or `200OK` as 200, where snm read 0, and a download then took the 200 answer's
  /// body as an error's and wrote an empty file (and an answer in chunks went unchecked).
  ///
  /// A field line is judged by the decoder's rules (``HTTPHeaders/Field/init(checkedHeaderLine:)``)
  /// and the head's fields by its limits (``HTTPLimits/responses``), refused in its words: libcurl
  /// took control characters, a bare CR, folding, a space in a name and an 80 KB value that the
  /// decoder refuses over http://. Trailers (after the final head) are the framing's to judge.
  fileprivate func readHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    // The notes of a resend and of a GOAWAY before the answer are past.
    if readingNotes, let easy {
      readingNotes = false
      _ = snm_curl_set_long(easy, CURLOPT_VERBOSE, 0)
    }
    receivedHead = true
    if finalHeadEnded { return bodyFailure == nil }
    var end = line.count
    while end > 0, line[end - 1] == 10 || line[end - 1] == 13 { end -= 1 }
    let bytes = UnsafeBufferPointer(rebasing: line[..<end])
    // Outside a head, a line is a status line (libcurl hands no other: it reads one not starting
    // with `HTTP/` as HTTP/0.9, and refuses it; `http/1.1 200` it takes, as the decoder does not).
    if !inHead {
      guard bytes.starts(with: "HTTP/".utf8) else { return refuse(.notHTTP) }
      guard end <= HTTPLimits.responses.maxStartLineBytes else {
        return refuse(.statusLineTooLong)
      }
      guard let status = HTTPDecoder.status(ofStatusLine: bytes) else {
        return refuse(.badStatusLine)
      }
      // snm asks libcurl for no upgrade.
      guard status != 101 else { return refuse(.unaskedSwitch) }
      // libcurl writes an HTTP/2 answer's status line `HTTP/2 200`; any other is HTTP/1.x's.
      if !bytes.starts(with: "HTTP/2 ".utf8) {
        do throws(HTTPParseError) {
          _ = try HTTPDecoder.minorVersion(ofStatusLine: bytes)
        } catch {
          return refuse(error)
        }
      }
      inHead = true
      headIsHTTP2 = bytes.starts(with: "HTTP/2 ".utf8)
      headStatus = status
      headBytes = line.count - end
      return true
    }
    headBytes += line.count
    let limits = HTTPLimits.responses
    guard headBytes <= limits.maxHeaderBytes else { return refuse(HTTPParseError.fieldsTooLarge) }
    if bytes.isEmpty {
      headEnded()
      // An early answer of no stated length ends the transfer at its head (``answeredEarly()``).
      return earlyAnswer?.rest != .notWaitedFor
    }
    do throws(HTTPParseError) {
      headers.append(try HTTPHeaders.Field(checkedHeaderLine: bytes))
    } catch {
      return refuse(error)
    }
    guard headers.count <= limits.maxHeaderCount else { return refuse(.tooManyFields) }
    return true
  }

  /// The decoder's words for a head line past libcurl's 100 KiB, which libcurl gives up on
  /// (`CURLE_OUT_OF_MEMORY`) before handing it over: a status line when no head is being read, a
  /// field line when one is; nil once the final head ended (a trailer's is the framing's).
  var headLineRefusal: HTTPParseError? {
    finalHeadEnded ? nil : inHead ? .fieldsTooLarge : .statusLineTooLong
  }

  /// Whether a head's status line came and its empty line has not: a line libcurl refuses now
  /// is one of its fields.
  var readingFields: Bool { inHead }

  /// Whether the final head ended (its empty line came): what breaks off after is a cut answer.
  var headComplete: Bool { finalHeadEnded }

  /// Whether a head's lines came (a status line, an interim answer) and the final head did not
  /// end: the connection closed in the head, as the plain reader's `.inHead`
  /// (``TransportRequest/cutHeadReason(_:)``). (A status line cut off before its line end libcurl
  /// keeps to itself: "Empty reply from server", told as nothing answered.)
  var headCutOff: Bool { receivedHead && !finalHeadEnded }

  /// Stops the transfer for a head the decoder refuses, in its words.
  private func refuse(_ error: HTTPParseError) -> Bool {
    bodyFailure = .malformed("the answer is not valid HTTP (\(error))")
    return false
  }

  /// The head ended. An answer with a body in chunks (libcurl's rule: `chunked` among its
  /// transfer codings) has its chunk framing read by snm's decoder as well, from the bytes as
  /// they come: libcurl hands them, before it takes the chunks apart, to a debug callback
  /// (`CURLINFO_DATA_IN`), which only `CURLOPT_VERBOSE` turns on. Turned on here, for this answer
  /// alone (`curl_easy_reset` turns it off before the next), so that an HTTP/2 answer or one with
  /// a length costs nothing. (`CURLOPT_HTTP_TRANSFER_DECODING` off would hand over the chunks
  /// raw, but with a gzip under them still compressed.) A trailer's empty line starts nothing.
  private func headEnded() {
    inHead = false
    guard headStatus >= 200 else {
      headers.removeAll(keepingCapacity: true)  // an interim answer's
      return
    }
    finalHeadEnded = true
    noteEarlyAnswer()
    // Whatever its status line's version: an HTTP/1.1 server may write `HTTP/2 200`, and
    // libcurl takes its chunks apart all the same (an HTTP/2 answer has no `Transfer-Encoding`:
    // nghttp2 refuses the field).
    guard framing == nil, headStatus != 204, headStatus != 304,
      HTTPHeaders(headers).transferCodings.contains("chunked"), let easy
    else { return }
    framing = CurlChunkFraming(
      limit: PlainHTTPReader.decoderLimit(
        maximumBodyBytes: maximumBodyBytes, saveTo: saveTo, arriving: arriving))
    _ = snm_curl_set_long(easy, CURLOPT_VERBOSE, 1)
  }

  /// Notes an HTTP/2 answer of 300 or more whose head ended while the request's body still went
  /// out (`CURLINFO_SIZE_UPLOAD_T` short of its length): libcurl 7.88 stops sending then ("HTTP
  /// error before end of send, stop sending") but leaves its side of the stream open, and a
  /// server that ended its own side without a reset (RST_STREAM) and reads no more of the body
  /// left the transfer waiting to the timeout, now and then or each time (curl issue 15316, fixed
  /// in 8.11 by a reset; Debian 12 has 7.88). The transfer ends where the answer does: with a
  /// `Content-Length`, once that much of its body came (``answeredEarly()``); without one at its
  /// head, since nothing else tells where it ends (libcurl does not say when the stream's end
  /// came).
  private func noteEarlyAnswer() {
    guard headIsHTTP2, let bodyLength, let easy else { return }
    var sent: curl_off_t = 0
    guard snm_curl_get_offset(easy, CURLINFO_SIZE_UPLOAD_T, &sent) == CURLE_OK, sent < bodyLength
    else { return }
    // A 2xx answer is no refusal: libcurl sends on, and the server may read the rest yet (a
    // stream both ways). Should it not, the transfer times out, saying the answer came.
    guard headStatus >= 300 else {
      earlySuccess = headStatus
      return
    }
    earlyAnswerLength = HTTPHeaders(headers)["Content-Length"].flatMap { Int64($0) }
    earlyAnswer = SNMResponse.EarlyAnswer(rest: earlyAnswerLength != nil ? .read : .notWaitedFor)
  }

  /// The server answered while the request's body still went out and closed its HTTP/2 stream
  /// (RST_STREAM NO_ERROR, RFC 9113 §8.1: the answer is whole, the rest of the body is not
  /// wanted), and libcurl 7.88 failed the transfer with nothing of the answer handed over
  /// (``closedWhileSending``): its fields and body are lost, and only the status libcurl keeps
  /// from the frame itself is had (``snm_curl_last_http2_status``). One of 300 or more is the
  /// server's answer (an early 413 or 401: ``SNMResponse/EarlyAnswer/Rest/dropped``); a 2xx is
  /// told in the failure (its body, rows it may return, is lost). False when no final status is.
  func droppedAnswer() -> Bool {
    guard closedWhileSending, !receivedHead, let easy else { return false }
    let status = snm_curl_last_http2_status(easy)
    guard status >= 200 else { return false }
    droppedStatus = status
    guard status >= 300 else { return false }
    self.status = status
    earlyAnswer = SNMResponse.EarlyAnswer(rest: .dropped)
    return true
  }

  /// Whether an early answer (``earlyAnswer``) that named its length has come whole
  /// (`CURLINFO_SIZE_DOWNLOAD_T`, the body's bytes as sent, before any decoding): its transfer
  /// ends there (``CurlHandle``), as one without a length ended at its head.
  func answeredEarly() -> Bool {
    guard let earlyAnswerLength, let easy else { return false }
    var received: curl_off_t = 0
    guard snm_curl_get_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &received) == CURLE_OK else {
      return false
    }
    return received >= earlyAnswerLength
  }

  /// The body's bytes as they came (chunk framing and all): its framing read, a refusal kept as
  /// the body's failure (the next body bytes stop the transfer, and so does ``CurlHandle``'s
  /// loop, when no more come).
  fileprivate func readRaw(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bodyFailure == nil else { return }
    do throws(PlainHTTPFailure) {
      try framing?.received(bytes)
    } catch {
      bodyFailure = error
    }
  }

  /// Body bytes: taken as they come (``ArrivingBody``); a body that cannot be taken stops the
  /// transfer (false).
  fileprivate func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if bodyFailure != nil { return false }
    if let saveTo, headStatus == 200 {
      do {
        if writer == nil { writer = try BesideFile(destination: saveTo) }
        try writer?.write(UnsafeRawBufferPointer(bytes))
        return true
      } catch {
        fileFailure = error
        return false
      }
    }
    do throws(PlainHTTPFailure) {
      if body == nil {
        body = try ArrivingBody(
          status: headStatus, announced: nil, limit: maximumBodyBytes, arriving: arriving,
          wiping: holdsSecrets)
      }
      try body?.received(bytes)
      return true
    } catch {
      bodyFailure = error
      return false
    }
  }
}

extension CurlTransfer {
  /// libcurl is about to send the request. False stops a write's second send, after an HTTP/2
  /// reset that asks it (REFUSED_STREAM, HTTP_1_1_REQUIRED) or a kept connection that closed
  /// before any answer (libcurl has no option against either). A read refused with REFUSED_STREAM
  /// is sent again after a pause, 0.1 s doubled each time (0.1 to 1.6 s: libcurl sent it again at
  /// once, five times in a few milliseconds, to a server that may be refusing for its load). A
  /// read's kept connection the server had closed is replaced and the read sent again at once,
  /// as over http://.
  fileprivate func willSend() -> Bool {
    sends += 1
    // On a new connection (its first request: a script's first, a resend) the notes are read
    // from the send on, so that a GOAWAY or reset read with it is not missed; on a kept one from
    // the next `curl_multi_perform` (``performed()``), which spares a read the notes of its fields.
    var connections = 0
    if !readingNotes, let easy {
      _ = snm_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &connections)
      if connections > 0 {
        readingNotes = true
        _ = snm_curl_set_long(easy, CURLOPT_VERBOSE, 1)
      }
    }
    if goawayError != nil, let easy {
      _ = snm_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &connections)
      if connections != connectionsAtGoaway {
        goawayError = nil
        goawayLastStream = nil
      }
    }
    guard sends > 1 else { return true }
    let reset = resetBeforeResend
    resetBeforeResend = nil
    if writes {
      // A write goes out once, whatever libcurl would send it again for: a reset asking it
      // (after REFUSED_STREAM the server did not process it, but libcurl 7.88 sending again a
      // write whose body it had sent waited to the timeout, a POST's and a file's PUT alike), or
      // a kept connection that closed before any answer (it may have: libcurl sent it again, and
      // a server that applied it and closed got it twice).
      if let reset { resendStopped = reset } else { unansweredWriteStopped = true }
      return false
    }
    // A read's note may be missed (``performed()``): each send on a new connection of its own
    // (`CURLINFO_NUM_CONNECTS`) tells a reset stream from a kept connection the server closed.
    if reset == nil, let easy { _ = snm_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &connections) }
    if reset == 7 || (reset == nil && connections >= sends) {
      pause(milliseconds: 100 << min(sends - 2, 4))
    }
    // Ctrl-C during the pause: the request is not sent again (it went out once more).
    return !isCancelled()
  }

  /// After each `curl_multi_perform`: once a read's request went out, libcurl's notes are read
  /// until the answer's first line (a reset or a GOAWAY comes back a round trip later, so its
  /// note is not missed; a missed one would only leave out the code, or the pause).
  func performed() {
    guard !readingNotes, sends > 0, !receivedHead, let easy else { return }
    readingNotes = true
    _ = snm_curl_set_long(easy, CURLOPT_VERBOSE, 1)
  }

  /// Waits `milliseconds`, or less once the transfer is cancelled.
  private func pause(milliseconds: Int) {
    let end = ContinuousClock.now + .milliseconds(milliseconds)
    while !isCancelled(), ContinuousClock.now < end { usleep(10_000) }
  }

  /// One of libcurl's notes (`CURLINFO_TEXT`): "REFUSED_STREAM, retrying a fresh connect",
  /// "Downgrades to HTTP/1.1", "recveived GOAWAY, error=11, last_stream=0" (7.88's spelling;
  /// later ones "received").
  fileprivate func readNote(_ bytes: UnsafeBufferPointer<UInt8>) {
    if bytes.starts(with: "REFUSED_STREAM".utf8) {
      resetBeforeResend = 7
    } else if bytes.starts(with: "Downgrades to HTTP/1.1".utf8) {
      resetBeforeResend = 13
    } else if bytes.starts(with: "stream ".utf8), bytes.count < 30 {
      let note = String(decoding: bytes, as: UTF8.self).dropFirst("stream ".count)
      let number = note.prefix(while: \.isNumber)
      closedWhileSending =
        closedWhileSending
        || (!number.isEmpty && note.dropFirst(number.count).hasPrefix(" closed"))
    } else if bytes.starts(with: Self.streamNote.utf8), bytes.count < 100 {
      let note = String(decoding: bytes, as: UTF8.self).dropFirst(Self.streamNote.count)
      streamID = UInt32(note.prefix(while: \.isNumber))
    } else if bytes.first == UInt8(ascii: "r"), bytes.count < 100 {
      let note = String(decoding: bytes, as: UTF8.self)
      guard let found = note.range(of: "GOAWAY, error=") else { return }
      goawayError = UInt32(note[found.upperBound...].prefix(while: \.isNumber))
      goawayLastStream = note.range(of: "last_stream=").flatMap {
        UInt32(note[$0.upperBound...].prefix(while: \.isNumber))
      }
      var connections = 0
      if let easy { _ = snm_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &connections) }
      connectionsAtGoaway = connections
    }
  }

  /// libcurl's note of the stream a request goes out on (7.88, `lib/http2.c`).
  private static let streamNote = "Using Stream ID: "

  /// Whether the server said it did not process the request (RFC 9113 §8.7), so that it may be
  /// sent again, a write too: it refused its stream (REFUSED_STREAM, after which libcurl's own
  /// send again was stopped: ``resendStopped``), or closed the connection with a GOAWAY whose last
  /// stream is below the request's, before any of the answer.
  var notProcessed: Bool {
    // A body from a file libcurl could not read again stops its send again too (``unrewoundReset``).
    if resendStopped == 7 || resetBeforeResend == 7 { return true }
    guard !receivedHead, goawayError != nil, let last = goawayLastStream, let streamID else {
      return false
    }
    return streamID > last
  }

  /// Fills `buffer` from the body file; 0 at its end. A read error aborts the transfer.
  fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard let bodyFile else { return 0 }
    let count = bodyFile.read(into: buffer, at: bodyOffset)
    if count < 0 {
      fileFailure = TransportFileError(path: bodyFile.path, call: "read")
      return Int(CURL_READFUNC_ABORT)
    }
    bodyOffset += Int64(count)
    return count
  }
}

/// `CURLOPT_READFUNCTION`: the next piece of the body file.
private func curlReadBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return Int(CURL_READFUNC_ABORT) }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.readBody(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
}

/// `CURLOPT_WRITEFUNCTION`: hands body bytes to the transfer; fewer than given stops it.
private func curlWriteBody(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  curlCallback(data, size * count, context) { $0.appendBody($1) }
}

/// `CURLOPT_HEADERFUNCTION`: one head line at a time.
private func curlReadHeader(
  _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
  _ context: UnsafeMutableRawPointer?
) -> Int {
  curlCallback(data, size * count, context) { $0.readHeader($1) }
}

/// `CURLOPT_DEBUGFUNCTION` (`CURLOPT_VERBOSE` on from the request's send to the answer's first
/// line, and for the body of an answer in chunks): the
/// body's bytes as they came (`CURLINFO_DATA_IN`) and libcurl's notes (`CURLINFO_TEXT`); the
/// rest is ignored.
private func curlReadRaw(
  _ handle: UnsafeMutableRawPointer?, _ type: curl_infotype, _ data: UnsafeMutablePointer<CChar>?,
  _ size: Int, _ context: UnsafeMutableRawPointer?
) -> Int32 {
  switch type {
  case CURLINFO_DATA_IN:
    _ = curlCallback(data, size, context) { transfer, bytes in
      transfer.readRaw(bytes)
      return true
    }
  case CURLINFO_TEXT:
    _ = curlCallback(data, size, context) { transfer, bytes in
      transfer.readNote(bytes)
      return true
    }
  default:
    break
  }
  return 0
}

/// `CURLOPT_PREREQFUNCTION`: the request is about to be sent (again, after a reset).
private func curlWillSend(
  _ context: UnsafeMutableRawPointer?, _ primaryIP: UnsafeMutablePointer<CChar>?,
  _ localIP: UnsafeMutablePointer<CChar>?, _ primaryPort: Int32, _ localPort: Int32
) -> Int32 {
  guard let context else { return CURL_PREREQFUNC_OK }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.willSend() ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

/// A data callback's bytes handed to the transfer in `context`; `length` taken, or 0 (which
/// stops the transfer) when `take` refuses them.
private func curlCallback(
  _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ context: UnsafeMutableRawPointer?,
  _ take: (CurlTransfer, UnsafeBufferPointer<UInt8>) -> Bool
) -> Int {
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let bytes = UnsafeBufferPointer(
    start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
  return take(transfer, bytes) ? length : 0
}
