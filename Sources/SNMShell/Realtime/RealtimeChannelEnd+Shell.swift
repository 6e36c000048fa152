import SNMSupabase

extension RealtimeChannelEnd {
  /// What `expect event` and `snm listen` say of it: the socket's end or the subscription's.
  var ended: String {
    if case .socket = self {
      "the socket ended: \(self)"
    } else {
      "the subscription ended: \(self)"
    }
  }

  /// 1 when the server closed the channel (it answered, and refused to go on: a rate limit, a
  /// policy), 3 when the stream or the project went away (the socket, a crash, a change stream
  /// that ended).
  var exitCode: ExitCode { isClosedByServer ? .failure : .unreachable }
}
