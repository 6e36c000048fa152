import Foundation
import SNMNetwork
import SNMWire

extension StatementExecutor {
  /// Binds `$last` after a statement that sent a request: `status`, `count` (the total of
  /// `Content-Range`, null when not counted), `rows`, `time_ms`, `error` (the server's code, or
  /// null) and `headers` (names in lowercase: `$last.headers.content-range`); after `invoke` and
  /// `request`, `body` too (the answer as JSON, text or its size and type).
  func bindLast(_ outcome: StatementOutcome?) {
    guard let outcome else { return }
    // Made from whole member lists: appending grew an object's two arrays member by member.
    let fields = outcome.headers?.fields ?? []
    var headers: [JSONObject.Member] = []
    headers.reserveCapacity(fields.count)
    for field in fields {
      let key = field.name.lowercased()
      if !headers.contains(where: { $0.key == key }) {
        headers.append(.init(key, .string(field.value)))
      }
    }
    let total = ExpectationCheck.total(of: outcome)
    var object = JSONObject([
      .init("status", outcome.status.map { .number(JSONNumber($0)) } ?? .null),
      .init("count", total.map { .number(JSONNumber($0)) } ?? .null),
      .init("rows", .number(JSONNumber(outcome.rowCount))),
      .init(
        "time_ms",
        outcome.milliseconds.map { .number(JSONNumber(Int($0.rounded()))) } ?? .null),
      .init("error", outcome.failure?.code.map(JSONValue.string) ?? .null),
      .init("headers", .object(JSONObject(headers))),
    ])
    if outcome.keepsBody { object.append("body", outcome.value) }
    state.withLock { $0.variables["last"] = .object(object) }
  }

  /// Takes back the signal that stopped the scripts, so their `defer` statements can run (and
  /// print: standard output and `\o`'s file, stopped by the signal, write again); returns it
  /// (nil: none).
  func clearInterruption() -> Int32? {
    let signal = interruption
    if signal != nil {
      stopSignal.store(0, ordering: .relaxed)
      _ = resumeOutputs()
      baseErrors.stopHurrying()
    }
    return signal
  }
}
