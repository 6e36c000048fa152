import CCurl
import Foundation

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
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(url: url, seconds: timeout)
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
    case CURLE_PARTIAL_FILE:
      return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
    case CURLE_GOT_NOTHING:
      return .malformedResponse(url: url, reason: "the connection closed before a complete answer")
    case CURLE_RECV_ERROR where detail.hasSuffix(" in chunked-encoding"):
      // Chunk framing curl cannot read ("Malformed encoding found", "Illegal or missing
      // hexadecimal sequence"): the server's answer is wrong, not cut off.
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      if transfer.receivedHead {
        return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
      }
      return .malformedResponse(url: url, reason: "the connection closed before a complete answer")
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
      return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
    case CURLE_HTTP2_STREAM where transfer.body != nil:
      // The stream was reset once its body had started (nginx does when the upstream answer
      // breaks off): the answer was cut off, as the same break is over HTTP/1.1.
      return .malformedResponse(url: url, reason: "the answer was cut off (\(detail))")
    case CURLE_HTTP2_STREAM where detail.hasSuffix(": PROTOCOL_ERROR (err 1)"):
      // nghttp2 resets a stream whose answer breaks HTTP/2's rules before snm sees a line of it
      // (ESC or DEL in a field value, which the HTTP/1.1 path refuses in the decoder's words):
      // said in snm's words, with the stream's error code (RFC 9113 §7), not libcurl's text.
      return .malformedResponse(
        url: url, reason: "the answer is not valid HTTP/2 (the stream was reset: PROTOCOL_ERROR)")
    case CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
      return .malformedResponse(url: url, reason: "HTTP/2 framing failed (\(detail))")
    case CURLE_URL_MALFORMAT:
      return .invalidURL(url)
    default:
      let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      return .unreachable(url: url, cause: text)
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
