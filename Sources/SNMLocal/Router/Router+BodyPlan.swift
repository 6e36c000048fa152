import SNMGateway
import SNMWire

extension Router {
  /// Whether the server streams a request's body, shown its head: a service that streams some
  /// bodies (Storage's uploads, to disk) is asked, after the gateway admitted the request (or
  /// refused it before one byte of the body is read); everything else is buffered.
  public func bodyPlan(_ request: HTTPRequest) -> HTTPBodyPlan {
    guard request.method == "POST" || request.method == "PUT",
      let service = services.first(where: { Self.matches(request.path, prefix: $0.prefix) }),
      service.streamsBodies
    else { return .buffer }
    switch admit(request, as: service.admission) {
    case .success(let admitted):
      switch service.bodyPlan(admitted.changed ?? request, caller: admitted.caller) {
      case .buffer: return .buffer
      case .stream(let sink): return .stream(CORSBodySink(sink))
      case .answer(var response):
        response.headers["Access-Control-Allow-Origin"] = "*"
        return .answer(response)
      }
    case .failure(let refusal):
      var response = refusal.response
      response.headers["Access-Control-Allow-Origin"] = "*"
      response.headers["Connection"] = "close"
      return .answer(response)
    }
  }
}

/// A body sink whose answers carry `Access-Control-Allow-Origin: *`, as every answer of the
/// gateway does.
final class CORSBodySink: HTTPBodySink {
  let inner: any HTTPBodySink

  init(_ inner: any HTTPBodySink) { self.inner = inner }

  func receive(_ bytes: UnsafeRawBufferPointer) -> HTTPResponse? {
    inner.receive(bytes).map(Self.allowed)
  }

  func finish(_ request: HTTPRequest) -> HTTPResponse { Self.allowed(inner.finish(request)) }

  func abandon() { inner.abandon() }

  static func allowed(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response
  }
}
