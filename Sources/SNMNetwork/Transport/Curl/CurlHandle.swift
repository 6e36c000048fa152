import CCurl
import Foundation
import SNMWire
import Synchronization

/// One libcurl transfer slot: a multi handle with one easy handle, reused request after request so
/// its connection stays open. ``perform(_:certificateAuthorities:)`` blocks its thread (the
/// transport runs it on a queue of its own); ``cancel()`` may be called from any thread and wakes
/// the poll at once.
final class CurlHandle: Sendable {
  /// The handles' addresses (pointers are not `Sendable`; these are only used by one perform at a
  /// time, and by `curl_multi_wakeup`, which is thread-safe).
  private let multiAddress: UInt
  private let easyAddress: UInt
  private let cancelled = Atomic<Bool>(false)
  private let closed = Mutex(false)

  private init(multi: UnsafeMutableRawPointer, easy: UnsafeMutableRawPointer) {
    multiAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(multi)))
    easyAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(easy)))
  }

  deinit {
    close()
  }

  /// A new slot, or nil when libcurl cannot make one.
  static func make() -> CurlHandle? {
    _ = globalInit
    guard let easy = curl_easy_init() else { return nil }
    guard let multi = curl_multi_init() else {
      curl_easy_cleanup(easy)
      return nil
    }
    return CurlHandle(multi: multi, easy: easy)
  }

  /// Why libcurl (opened on first use) cannot be had, or nil when it is there: a machine without
  /// libcurl4 still runs snm, and only its https:// requests fail, saying so.
  static var unavailable: String? {
    snm_libcurl_load().map { "\(String(cString: $0)) (https:// requests need libcurl4)" }
  }

  /// `curl_global_init` once per process, before the first handle.
  private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

  private var multi: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: multiAddress) }
  private var easy: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: easyAddress) }

  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Stops the transfer in flight (or the next one) and wakes its poll.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
    closed.withLock { isClosed in
      if !isClosed { curl_multi_wakeup(multi) }
    }
  }

  /// Frees both handles, closing their connections.
  func close() {
    closed.withLock { isClosed in
      guard !isClosed else { return }
      isClosed = true
      curl_multi_cleanup(multi)
      curl_easy_cleanup(easy)
    }
  }

  enum Outcome {
    case answered(CurlTransfer)
    case failed(CURLcode, CurlTransfer)
  }

  /// Runs `request` to its end, its deadline, or ``cancel()``; its body is read as `arriving`
  /// (the sending task's ``ArrivingElements``) says.
  func perform(
    _ request: TransportRequest, arriving: ArrivingElements?, certificateAuthorities: String?
  ) -> Outcome {
    let transfer = CurlTransfer(maximumBodyBytes: request.maximumBodyBytes, arriving: arriving)
    transfer.isCancelled = { [unowned self] in self.isCancelled }
    transfer.saveTo = request.responseFile
    transfer.holdsSecrets = request.holdsSecrets
    if let path = request.bodyFile {
      do {
        transfer.bodyFile = try RequestBodyFile(path: path)
      } catch {
        transfer.fileFailure = error
        return .failed(CURLE_READ_ERROR, transfer)
      }
    }
    guard let easy, let multi else { return .failed(CURLE_FAILED_INIT, transfer) }
    return withExtendedLifetime(transfer) {
      curl_easy_reset(easy)
      var headers: UnsafeMutablePointer<curl_slist>?
      defer {
        // Its lines are the request's fields, the key and the user's token among them: zeroed
        // before libcurl frees them.
        var line = headers
        while let node = line {
          if let text = node.pointee.data {
            WipedMemory.zero(UnsafeMutableRawBufferPointer(start: text, count: strlen(text)))
          }
          line = node.pointee.next
        }
        curl_slist_free_all(headers)
      }
      let configured = transfer.configure(
        easy, for: request, certificateAuthorities: certificateAuthorities, headers: &headers)
      guard configured == CURLE_OK else { return .failed(configured, transfer) }
      guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
        return .failed(CURLE_FAILED_INIT, transfer)
      }
      defer { curl_multi_remove_handle(multi, easy) }
      let result = run(
        transfer, until: ContinuousClock.now + .seconds(max(request.timeout, 0.001)))
      var status = 0
      if snm_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK {
        transfer.status = status
      }
      var osError = 0
      if snm_curl_get_long(easy, CURLINFO_OS_ERRNO, &osError) == CURLE_OK {
        transfer.osError = Int32(truncatingIfNeeded: osError)
      }
      if result != CURLE_OK {
        _ = snm_curl_get_long(easy, CURLINFO_NUM_CONNECTS, &transfer.connectionsMade)
      }
      // libcurl may have read to its end an answer whose framing snm refused.
      if result == CURLE_OK, transfer.bodyFailure != nil {
        return .failed(CURLE_WRITE_ERROR, transfer)
      }
      // An early answer of no stated length, stopped at its head (``CurlTransfer/earlyAnswer``).
      if result == CURLE_WRITE_ERROR, transfer.earlyAnswer?.rest == .notWaitedFor,
        transfer.bodyFailure == nil, transfer.fileFailure == nil
      {
        return .answered(transfer)
      }
      // An early answer libcurl dropped when the server closed the stream after it: its status.
      if result == CURLE_HTTP2_STREAM, transfer.droppedAnswer() { return .answered(transfer) }
      // libcurl 7.88 ends with no error an HTTP/1.1 transfer whose head the connection's close
      // cut in its fields (`HTTP/1.1 200 OK` and part of a field: a 200 with no body): no
      // answer came (``CurlTransfer/headCutOff``).
      if result == CURLE_OK, !transfer.headComplete {
        return .failed(CURLE_PARTIAL_FILE, transfer)
      }
      return result == CURLE_OK ? .answered(transfer) : .failed(result, transfer)
    }
  }

  /// Drives the multi handle until the transfer ends; `CURLE_OPERATION_TIMEDOUT` past `deadline`,
  /// `CURLE_ABORTED_BY_CALLBACK` once cancelled, `CURLE_WRITE_ERROR` once the body is refused
  /// (its chunk framing, read as it came, while libcurl waits for a chunk that never comes).
  private func run(_ transfer: CurlTransfer, until deadline: ContinuousClock.Instant) -> CURLcode {
    var running: Int32 = 1
    while true {
      if isCancelled { return CURLE_ABORTED_BY_CALLBACK }
      let performed = curl_multi_perform(multi, &running)
      transfer.performed()
      guard performed == CURLM_OK else { return CURLE_RECV_ERROR }
      if transfer.bodyFailure != nil { return CURLE_WRITE_ERROR }
      if running == 0 { break }
      // An early answer come whole: libcurl 7.88 may wait on for the stream's end.
      if transfer.answeredEarly() { return CURLE_OK }
      let left = ContinuousClock.now.duration(to: deadline)
      let milliseconds =
        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
      if milliseconds <= 0 { return CURLE_OPERATION_TIMEDOUT }
      _ = curl_multi_poll(multi, nil, 0, Int32(min(milliseconds + 1, 1000)), nil)
    }
    var queued: Int32 = 0
    var result = CURLE_OK
    while let message = curl_multi_info_read(multi, &queued) {
      if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
    }
    return result
  }
}
