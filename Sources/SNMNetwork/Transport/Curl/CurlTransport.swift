import CCurl
import Dispatch
import Foundation
import SNMWire
import Synchronization

/// The ``HTTPTransport`` for `https://` URLs (hosted projects): libcurl with OpenSSL, HTTP/2 when
/// the server offers it (ALPN), HTTP/1.1 otherwise; connections kept alive. Bodies are read as
/// the plain transport reads them (``ArrivingBody``: checked as they arrive, a 2xx array of rows
/// spilled to a file past its bound when the sending task's ``ArrivingElements`` allows it).
///
/// ```swift
/// let transport = CurlTransport(maximumIdlePerHost: 6, certificateAuthorities: "/etc/my-ca.pem")
/// let response = try await transport.send(request)
/// ```
/// Why libcurl and not URLSession, which sits on the same libcurl: on Linux, FoundationNetworking
/// offers no way to trust a private CA (its CA bundle is fixed; `SSL_CERT_FILE` is ignored), crashes
/// when a redirect is refused, and otherwise follows redirects to any host carrying every header;
/// it holds a whole body with no limit (nowhere to check or spill it as it arrives) and times out
/// per idle interval only. libcurl gives the CA file, redirect control, the body's bytes as they
/// come in the write callback, one deadline for the whole request and a poll that cancellation
/// wakes at once. Throws ``SNMNetworkError``
/// (``CurlTransport/failure(_:transfer:url:timeout:)``).
public final class CurlTransport: HTTPTransport {
  /// The CA bundle (PEM) to trust instead of the system's, as curl's `--cacert`; nil for the
  /// system's (Debian: /etc/ssl/certs/ca-certificates.crt).
  public let certificateAuthorities: String?
  private let kept: KeptConnections<CurlHandle>

  public init(maximumIdlePerHost: Int, certificateAuthorities: String? = nil) {
    kept = KeptConnections(maximumPerKey: maximumIdlePerHost)
    self.certificateAuthorities = certificateAuthorities
  }

  public func send(_ request: TransportRequest) async throws(SNMNetworkError) -> SNMResponse {
    let address = request.url
    guard let url = URL(string: address), url.host != nil, let scheme = url.scheme?.lowercased()
    else { throw .invalidURL(address) }
    if Task.isCancelled { throw .cancelled(url: address) }
    let key = "\(scheme)://\(url.host ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    if let missing = CurlHandle.unavailable {
      throw .unreachable(url: address, cause: missing)
    }
    guard var handle = kept.take(key) ?? CurlHandle.make() else {
      throw .unreachable(url: address, cause: "libcurl could not start a transfer")
    }
    let started = ContinuousClock.now
    var outcome = await exchange(request, on: handle)
    // A read a GOAWAY left unanswered on a kept connection, and a write the server did not
    // process, go once more, on a new one, in what is left of their time (`--timeout` bounds the
    // request, not each send: the plain transport's one deadline).
    var resent = false
    if case .failed(let code, let transfer) = outcome, !handle.isCancelled,
      Self.mayResend(request, after: code, transfer: transfer), let fresh = CurlHandle.make()
    {
      resent = true
      handle.close()
      handle = fresh
      let spent = started.duration(to: .now)
      var again = request
      again.timeout -=
        Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18
      outcome = await exchange(again, on: handle)
    }
    switch outcome {
    case .answered(let transfer):
      kept.keep(handle, key: key)?.close()
      var savedPath: String?
      var savedBytes: Int64 = 0
      if let saveTo = transfer.saveTo, transfer.status == 200 {
        // A 200 answer with an empty body writes nothing: the file is still made, empty.
        do throws(TransportFileError) {
          let writer: BesideFile
          if let started = transfer.writer {
            writer = started
          } else {
            writer = try BesideFile(destination: saveTo)
          }
          try writer.finish()
          savedPath = saveTo
          savedBytes = writer.bytes
        } catch {
          throw .localFile(error)
        }
      }
      let body: ArrivingBody.Whole
      do throws(PlainHTTPFailure) {
        body = try transfer.body?.finish() ?? ArrivingBody.Whole(bytes: Data())
      } catch {
        throw error.networkError(for: request)
      }
      var response = SNMResponse(
        url: address, status: transfer.status, headers: HTTPHeaders.merging(transfer.headers),
        body: body.bytes, savedPath: savedPath, savedBytes: savedBytes, checkedShape: body.shape,
        arrived: body.arrived, spilled: body.spilled)
      response.earlyAnswer = transfer.earlyAnswer
      return response
    case .failed(let code, let transfer):
      // Its connection is closed with it: a cancelled or broken transfer leaves nothing open.
      handle.close()
      transfer.writer?.abandon()
      if handle.isCancelled { throw .cancelled(url: address) }
      if let failure = transfer.fileFailure { throw .localFile(failure) }
      if let failure = transfer.bodyFailure {
        throw failure.networkError(for: request)
      }
      transfer.isResend = resent
      throw Self.failure(code, transfer: transfer, url: address, timeout: request.timeout)
    }
  }

  /// Runs `request` on `handle`, on a thread of its own; cancelling the task cancels it.
  private func exchange(_ request: TransportRequest, on handle: CurlHandle) async
    -> CurlHandle.Outcome
  {
    // Read here, in the sending task: the transfer runs on a thread of its own.
    let arriving = ArrivingElements.current
    // A serial queue of its own is "overcommit": the blocking loop gets a thread of its own instead
    // of one of the few that also run Swift tasks (as PlainHTTPClient does).
    let queue = DispatchQueue(label: "snm.curl")
    return await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<CurlHandle.Outcome, Never>) in
        queue.async {
          continuation.resume(
            returning: handle.perform(
              request, arriving: arriving, certificateAuthorities: self.certificateAuthorities))
        }
      }
    } onCancel: {
      handle.cancel()
    }
  }
}
