import CCurl
import Foundation
import SNMWire

extension CurlTransport {
  /// What a failed curl transfer means to the user, in the words the plain path uses for the same
  /// failure, curl's own detail in brackets where it helps.
  static func failure(_ code: CURLcode, transfer: CurlTransfer, url: String, timeout: TimeInterval)
    -> SNMNetworkError
  {
    let detail = transfer.errorText
    // A head line past libcurl's 100 KiB ("Out of memory") is past the decoder's limits too.
    if code == CURLE_OUT_OF_MEMORY, let refusal = transfer.headLineRefusal {
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(refusal))")
    }
    // A write libcurl would have sent again on a new connection (``CurlTransfer/willSend()``),
    // but for one a GOAWAY said the server did not process (told as the GOAWAY).
    if transfer.unansweredWriteStopped, !transfer.notProcessed || transfer.goawayError == nil {
      return .malformedResponse(
        url: url, reason: TransportRequest.unansweredReason(transfer.effect))
    }
    if let reset = http2Reset(code, transfer: transfer) {
      return .malformedResponse(url: url, reason: reset)
    }
    if let refusal = headRefusal(code, detail: detail, readingFields: transfer.readingFields) {
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(refusal))")
    }
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(url: url, seconds: timeout, answered: transfer.earlySuccess)
    case CURLE_ABORTED_BY_CALLBACK:
      return .cancelled(url: url)
    case CURLE_COULDNT_RESOLVE_HOST:
      return .unreachable(url: url, cause: "host not found")
    case CURLE_COULDNT_CONNECT:
      switch transfer.osError {
      case ECONNREFUSED: return .unreachable(url: url, cause: "connection refused")
      case ENETUNREACH, EHOSTUNREACH: return .unreachable(url: url, cause: "network is unreachable")
      default: return .unreachable(url: url, cause: detail.isEmpty ? "connection failed" : detail)
      }
    case CURLE_PEER_FAILED_VERIFICATION:
      return .unreachable(url: url, cause: certificateCause(detail))
    case CURLE_SSL_CACERT_BADFILE:
      return .unreachable(
        url: url,
        cause: "the CA certificates given (--cacert, SSL_CERT_FILE) cannot be read (\(detail))")
    case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_ENGINE_NOTFOUND,
      CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
      return .unreachable(url: url, cause: "TLS handshake failed (\(detail))")
    case CURLE_FILESIZE_EXCEEDED:
      return .malformedResponse(
        url: url, reason: TransportRequest.tooLargeReason(transfer.mostBytes))
    case CURLE_PARTIAL_FILE where transfer.headCutOff, CURLE_GOT_NOTHING where transfer.headCutOff:
      return .malformedResponse(url: url, reason: TransportRequest.cutHeadReason(transfer.effect))
    case CURLE_PARTIAL_FILE:
      return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
    case CURLE_GOT_NOTHING:
      return .malformedResponse(url: url, reason: closedReason(transfer))
    case CURLE_RECV_ERROR where detail.hasSuffix(" in chunked-encoding"):
      // Chunk framing curl cannot read ("Malformed encoding found", "Illegal or missing
      // hexadecimal sequence"): the server's answer is wrong, not cut off.
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      if transfer.receivedHead {
        return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
      }
      return .malformedResponse(url: url, reason: closedReason(transfer))
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
    case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
      return .malformedResponse(url: url, reason: "HTTP/2 framing failed (\(detail))")
    case CURLE_URL_MALFORMAT:
      return .invalidURL(url)
    default:
      let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      return .unreachable(url: url, cause: text)
    }
  }

  /// The reason for a connection that closed before any of the answer came, by what the request
  /// does, as over http:// (``PlainHTTPFailure/unanswered``).
  static func closedReason(_ transfer: CurlTransfer) -> String {
    TransportRequest.unansweredReason(transfer.effect)
  }

  /// What an HTTP/2 reset or GOAWAY that ended the transfer means, in snm's words with the
  /// stream's error code (RFC 9113 §7, named by snm, never libcurl's or the server's text), or
  /// nil for any other failure:
  /// - a stream reset (`RST_STREAM`; nghttp2 sends PROTOCOL_ERROR itself for a head breaking
  ///   HTTP/2's rules, such as ESC in a field value) is "the answer is not valid HTTP/2 (the stream
  ///   was reset: CODE)", with what a write or a function's call may have done (the server may
  ///   have processed it), or "the answer was cut off (...)" once the head had ended (nginx resets
  ///   a stream whose upstream answer breaks off), as the same break is over HTTP/1.1;
  /// - REFUSED_STREAM, which libcurl answers by sending the request again on a new connection: a
  ///   read is sent up to 6 times (the server did not process it, RFC 9113 §8.7), a write once
  ///   (``CurlTransfer/resendStopped``), and so is one reset with HTTP_1_1_REQUIRED; one whose
  ///   body is read from a file, which libcurl cannot read again, once too
  ///   (``CurlTransfer/unrewoundReset``);
  /// - a GOAWAY before the answer's head (libcurl: "Error in the HTTP2 framing layer", no words
  ///   of its own), with its code (from libcurl's notes), and a connection closed before the
  ///   stream's end.
  static func http2Reset(_ code: CURLcode, transfer: CurlTransfer) -> String? {
    let detail = transfer.errorText
    if let stopped = transfer.resendStopped {
      return "the answer is not valid HTTP/2 (the stream was reset: \(http2ErrorName(stopped)); "
        + "\(stoppedResend(notProcessed: transfer.notProcessed, isResend: transfer.isResend)))"
    }
    if code == CURLE_SEND_FAIL_REWIND, let reset = transfer.unrewoundReset {
      let why =
        transfer.isResend || transfer.notProcessed
        ? stoppedResend(notProcessed: transfer.notProcessed, isResend: transfer.isResend)
        : "a request whose body is read from a file is not sent again"
      return "the answer is not valid HTTP/2 (the stream was reset: \(http2ErrorName(reset)); "
        + "\(why))"
    }
    if let closed = closedBeforeAnswer(code, transfer: transfer) { return closed }
    switch code {
    case CURLE_HTTP2_STREAM where detail.isEmpty && transfer.closedWhileSending:
      let written = transfer.effect.mayHaveBeenApplied.map { "; " + $0 } ?? ""
      // A 2xx answer libcurl dropped (``CurlTransfer/droppedAnswer()``; one of 300 or more is
      // returned as the server's answer): what it said of the request is lost with its body.
      if let status = transfer.droppedStatus {
        return "the server answered (HTTP \(status)) before the request's body was sent whole and "
          + "closed its HTTP/2 stream (RST_STREAM NO_ERROR): libcurl 7.88 keeps nothing of such "
          + "an answer but its status (its fields and body were not read)\(written)"
      }
      return "the server closed the HTTP/2 stream before the request was sent whole, and no "
        + "answer was read\(written)"
    case CURLE_HTTP2_STREAM:
      let error: UInt32
      if detail.hasPrefix("HTTP/2 stream "), detail.contains(" was closed cleanly, but before") {
        error = 0  // NO_ERROR before the head's end
      } else if let open = detail.range(of: " (err ", options: .backwards), detail.hasSuffix(")"),
        let number = UInt32(detail[open.upperBound..<detail.index(before: detail.endIndex)])
      {
        error = number
      } else {
        return nil
      }
      let reset = "the stream was reset: \(http2ErrorName(error))"
      if transfer.body != nil || transfer.headComplete {
        return "the answer was cut off (\(reset))"
      }
      // Reset before the answer with any code but REFUSED_STREAM (told above): the server may
      // have processed it (RFC 9113 §8.7).
      let applied = transfer.effect.mayHaveBeenApplied.map { "; " + $0 } ?? ""
      return "the answer is not valid HTTP/2 (\(reset)\(applied))"
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      // Sent again on a new connection each time (libcurl sends again after a kept connection
      // closed only when it was kept): each new one was refused.
      guard transfer.sends > 2, detail.hasPrefix("Connection died, tried ") else { return nil }
      return "the answer is not valid HTTP/2 (the stream was reset: REFUSED_STREAM, each of the "
        + "\(transfer.sends) times the request was sent)"
    case CURLE_HTTP2 where detail.isEmpty:
      // A GOAWAY once the head had come (its note is read only before).
      let name = transfer.goawayError.map { ": " + http2ErrorName($0) } ?? ""
      return "the answer was cut off (the connection was closed by GOAWAY\(name))"
    case CURLE_PARTIAL_FILE where detail.hasSuffix(" before end of the underlying stream"):
      return "the answer was cut off (the connection closed before its HTTP/2 stream ended)"
    default:
      return nil
    }
  }

  /// A connection closed before the answer's first line: by a GOAWAY (libcurl: "Error in the
  /// HTTP2 framing layer", no words of its own; or, when the server may have taken the stream
  /// before it closed, the connection's end or reset after the GOAWAY), told with its code from
  /// libcurl's notes, or the stream's end without a head on a connection that ended. A write
  /// or a function's call may have been applied then, which is said (never that it was not; by
  /// what the request does, not its method: `storage ls` is a POST that reads); nil for any
  /// other failure.
  static func closedBeforeAnswer(_ code: CURLcode, transfer: CurlTransfer) -> String? {
    guard !transfer.receivedHead else { return nil }
    let detail = transfer.errorText
    let streamEnded =
      code == CURLE_PARTIAL_FILE
      && detail.hasSuffix(" before end of the underlying stream")
    switch code {
    case CURLE_HTTP2 where detail.isEmpty: break
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
      guard transfer.goawayError != nil || streamEnded else { return nil }
    default:
      return nil
    }
    guard code == CURLE_HTTP2 || transfer.goawayError != nil else {
      return "the answer is not valid HTTP/2 (the connection closed before the answer: its "
        + "stream ended without one\(writtenBeforeAnswer(transfer)))"
    }
    return goawayBeforeAnswer(transfer)
  }

  /// A GOAWAY before the answer's first line, with its code and what a write came to
  /// (``closedBeforeAnswer(_:transfer:)``; a write whose send again libcurl's was stopped, which
  /// the GOAWAY said the server did not process, is told so too).
  static func goawayBeforeAnswer(_ transfer: CurlTransfer) -> String {
    let name = transfer.goawayError.map { ": " + http2ErrorName($0) } ?? ""
    return "the answer is not valid HTTP/2 (the connection was closed by GOAWAY before the "
      + "answer\(name)\(writtenBeforeAnswer(transfer)))"
  }

  /// What a write a connection's end left unanswered came to: it may have been applied, or the
  /// server said it did not process it (then sent once more, or not: ``stoppedResend``); "" for
  /// a read.
  private static func writtenBeforeAnswer(_ transfer: CurlTransfer) -> String {
    guard transfer.writes else { return "" }
    guard transfer.notProcessed else {
      return transfer.effect.mayHaveBeenApplied.map { "; " + $0 } ?? ""
    }
    return "; " + stoppedResend(notProcessed: true, isResend: transfer.isResend)
  }

  /// What became of a write after a reset or GOAWAY that ended its transfer, by what was done:
  /// one the server said it did not process (REFUSED_STREAM, a GOAWAY below its stream) is sent
  /// once more on a new connection (``mayResend(_:after:transfer:)``) and told so when that send
  /// failed too, and as not sent again when it could not go (no new connection to be had: these
  /// words are the first send's only then); any other (HTTP_1_1_REQUIRED) is not sent again.
  static func stoppedResend(notProcessed: Bool, isResend: Bool) -> String {
    if isResend { return sentOnceMore }
    return notProcessed
      ? "the server did not process the write, not sent again"
      : "a request that writes is not sent again"
  }

  /// Whether a request that failed so may be sent once more on a new connection:
  /// - a read that failed so (``closedBeforeAnswer(_:transfer:)``) on a kept connection: a server
  ///   closing an idle connection (GOAWAY) while the request went out on it did not answer it
  ///   (RFC 9113 §6.8 lets a client send it again), and libcurl does not. Only a request that
  ///   reads (``TransportRequest/maySendAgain``: a GET, OPTIONS, `storage ls`), as over http://;
  /// - a write the server said it did not process (``CurlTransfer/notProcessed``: its stream
  ///   refused, or a GOAWAY's last stream below its own; RFC 9113 §8.7), once: libcurl's own
  ///   send again of it is stopped (it waited to the timeout now and then, its body sent), and
  ///   snm sends it anew on a new connection in its place.
  static func mayResend(_ request: TransportRequest, after code: CURLcode, transfer: CurlTransfer)
    -> Bool
  {
    guard request.maySendAgain else { return transfer.notProcessed && !transfer.isResend }
    return transfer.connectionsMade == 0 && closedBeforeAnswer(code, transfer: transfer) != nil
  }

  /// What a write the server did not process twice came to (``mayResend(_:after:transfer:)``).
  static let sentOnceMore =
    "the server did not process the write, sent once more on a new connection, no further"

  /// An HTTP/2 error code's name (RFC 9113 §7), or its number in hex (`0x99`) when it has none.
  static func http2ErrorName(_ code: UInt32) -> String {
    let names = [
      "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
      "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
      "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
    ]
    return code < names.count ? names[Int(code)] : "0x" + String(code, radix: 16)
  }

  /// The decoder's verdict on a head line libcurl refuses before handing it over (so its bytes
  /// are not to be had), from libcurl's words for it (7.88, `lib/http.c`, `lib/headers.c`): a
  /// field line without a colon (`HTTP/1.1 200 OK` among the fields) and a status line whose
  /// version is a well-formed one other than 1.0 and 1.1 (`HTTP/3 200`, `HTTP/1.5 200`), or that
  /// is bad otherwise: a code not three digits from 100 (`099`), none (`HTTP/1.1`), a version
  /// it cannot read (`HTTP/1.10 200`; libcurl says "Unsupported HTTP version in response" for
  /// these and a line without a status alike). (libcurl's words for a first line not starting
  /// with `HTTP/`, "Received HTTP/0.9 when not allowed", are the decoder's.) Nil for any other
  /// failure. A status line with two faults is told by the one libcurl checks first, and the
  /// decoder names the same (`HTTPDecoder.statusLineRefusal`).
  static func headRefusal(_ code: CURLcode, detail: String, readingFields: Bool) -> HTTPParseError?
  {
    switch code {
    case CURLE_WEIRD_SERVER_REPLY where readingFields && detail == "Header without colon":
      return .headerFieldWithoutColon
    case CURLE_UNSUPPORTED_PROTOCOL:
      switch detail {
      case "Unsupported response code in HTTP response":
        return .badStatusLine
      case "Unsupported HTTP version in response":
        return .badStatusLine
      case _ where detail.hasPrefix("Unsupported HTTP version ("):
        return .unsupportedVersion
      default:
        return nil
      }
    default:
      return nil
    }
  }

  /// The cause for a certificate the TLS stack would not accept, with what to do about it.
  static func certificateCause(_ detail: String) -> String {
    if detail.contains("subject name") || detail.contains("host name") {
      return "the server's TLS certificate is not for this host (\(detail))"
    }
    return "the server's TLS certificate is not trusted (\(detail)); "
      + "for a private CA, give --cacert FILE or set SSL_CERT_FILE"
  }
}
