import CCrypto
import Foundation
import Synchronization

/// TLS (OpenSSL) over a ``PlainHTTPConnection``, for `wss://`: the peer's certificate verified
/// against the CA certificates given (`--cacert`, `SSL_CERT_FILE`) or the system's, and its name
/// or address checked; nothing is sent before the handshake succeeds.
///
/// ```swift
/// let stream = try TLSClientStream.open(
///   host: "db.example.com", port: 443, certificateAuthorities: nil, deadline: deadline)
/// try stream.send(bytes, deadline: deadline)
/// ```
/// The session reads and writes memory buffers only; the bytes cross the socket outside its lock,
/// so a blocked read never holds up a send.
final class TLSClientStream: WebSocketByteStream {
  private let connection: PlainHTTPConnection
  /// The `SSL *`'s address (pointers are not `Sendable`); 0 once freed. Every use is under the lock.
  private let session: Mutex<UInt>

  private init(connection: PlainHTTPConnection, ssl: OpaquePointer) {
    self.connection = connection
    session = Mutex(UInt(bitPattern: Int(bitPattern: ssl)))
  }

  deinit {
    session.withLock { address in
      if let ssl = OpaquePointer(bitPattern: Int(address)) { SSL_free(ssl) }
      address = 0
    }
  }

  /// Connects to `host:port` and completes the handshake before `deadline`.
  ///
  /// - Throws: `.unreachable` saying why (the certificate not trusted or not for this host, the
  ///   CA file unreadable, the handshake refused), `.timedOut`.
  static func open(
    host: String, port: Int, certificateAuthorities: String?, deadline: ContinuousClock.Instant
  ) throws(WebSocketClientError) -> TLSClientStream {
    // libssl is opened on first use: a machine without it still runs snm, and wss:// says why.
    if let missing = snm_libssl_load() {
      throw .unreachable("\(String(cString: missing)) (wss:// needs Debian's libssl3)")
    }
    var error = [CChar](repeating: 0, count: 512)
    var badCAFile: Int32 = 0
    let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    guard
      let ssl = snm_tls_client_new(
        host, isAddress ? 1 : 0, certificateAuthorities, &error, error.count, &badCAFile)
    else {
      let detail = String(
        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if badCAFile != 0 {
        throw .unreachable(
          "the CA certificates given (--cacert, SSL_CERT_FILE) cannot be read (\(detail))")
      }
      throw .unreachable("TLS handshake failed (\(detail))")
    }
    let connection: PlainHTTPConnection
    do {
      connection = try PlainHTTPConnection.open(host: host, port: port, deadline: deadline)
    } catch {
      SSL_free(ssl)
      if case .unreachable(let why) = error { throw .unreachable(why) }
      throw .timedOut
    }
    let stream = TLSClientStream(connection: connection, ssl: ssl)
    do {
      try stream.handshake(deadline: deadline)
    } catch {
      connection.close()
      throw error
    }
    return stream
  }

  private func handshake(deadline: ContinuousClock.Instant) throws(WebSocketClientError) {
    while true {
      let (result, failure) = session.withLock { address -> (Int32, String?) in
        guard let ssl = OpaquePointer(bitPattern: Int(address)) else { return (-1, "closed") }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        let code = result == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl, result)
        let flushed = (try? flush(ssl, deadline: deadline)) != nil
        if code == SSL_ERROR_NONE || code == SSL_ERROR_WANT_READ {
          return (flushed ? result : -1, flushed ? nil : "the connection dropped")
        }
        return (-1, Self.failure(ssl))
      }
      if let failure { throw .unreachable(failure) }
      if result == 1 { return }
      let bytes: [UInt8]
      do {
        bytes = try connection.receive(deadline: deadline)
      } catch {
        throw error == .timedOut ? .timedOut : .unreachable("the connection dropped")
      }
      if bytes.isEmpty {
        throw .unreachable("TLS handshake failed (the server closed the connection)")
      }
      session.withLock { address in
        if let ssl = OpaquePointer(bitPattern: Int(address)) {
          _ = snm_tls_put_in(ssl, bytes, Int32(bytes.count))
        }
      }
    }
  }

  /// Why the handshake failed, in the https path's words.
  private static func failure(_ ssl: OpaquePointer) -> String {
    var error = [CChar](repeating: 0, count: 512)
    var certificate: Int32 = 0
    snm_tls_failure(ssl, &error, error.count, &certificate)
    let detail = String(
      decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch certificate {
    case 1: return "the server's TLS certificate is not for this host (\(detail))"
    case 2:
      return "the server's TLS certificate is not trusted (\(detail)); "
        + "for a private CA, give --cacert FILE or set SSL_CERT_FILE"
    default: return "TLS handshake failed (\(detail))"
    }
  }

  /// Sends what the session wrote to its outgoing buffer (called under the lock: records leave
  /// in the order they were made).
  private func flush(_ ssl: OpaquePointer, deadline: ContinuousClock.Instant)
    throws(PlainHTTPFailure)
  {
    while snm_tls_pending_out(ssl) > 0 {
      var count: Int32 = 0
      let chunk = [UInt8](unsafeUninitializedCapacity: 16 * 1024) { buffer, initialized in
        count = snm_tls_take_out(ssl, buffer.baseAddress, Int32(buffer.count))
        initialized = Int(count)
      }
      if chunk.isEmpty { return }
      try connection.send(chunk, deadline: deadline)
    }
  }

  func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(PlainHTTPFailure) {
    try session.withLock { address throws(PlainHTTPFailure) in
      guard let ssl = OpaquePointer(bitPattern: Int(address)) else { throw .cancelled }
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw -> Int32 in
          guard let base = raw.baseAddress else { return 0 }
          return SSL_write(ssl, base + offset, Int32(min(raw.count - offset, 1 << 20)))
        }
        if written <= 0 { throw .closedEarly(receivedNothing: false) }
        offset += Int(written)
      }
      try flush(ssl, deadline: deadline)
    }
  }

  func receive(deadline: ContinuousClock.Instant) throws(PlainHTTPFailure) -> [UInt8] {
    while true {
      // What the session already holds, decrypted; nil when it needs more bytes.
      let plain = try session.withLock { address throws(PlainHTTPFailure) -> [UInt8]? in
        guard let ssl = OpaquePointer(bitPattern: Int(address)) else { throw .cancelled }
        var count: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { buffer, initialized in
          count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
          initialized = Int(max(count, 0))
        }
        let code = count > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl, count)
        try flush(ssl, deadline: deadline)
        switch code {
        case SSL_ERROR_NONE: return chunk
        case SSL_ERROR_WANT_READ: return nil
        case SSL_ERROR_ZERO_RETURN: return []
        default: throw .closedEarly(receivedNothing: false)
        }
      }
      if let plain { return plain }
      let bytes = try connection.receive(deadline: deadline)
      if bytes.isEmpty { return [] }
      session.withLock { address in
        if let ssl = OpaquePointer(bitPattern: Int(address)) {
          _ = snm_tls_put_in(ssl, bytes, Int32(bytes.count))
        }
      }
    }
  }

  func cancel() {
    connection.cancel()
  }

  func close() {
    connection.close()
  }
}
