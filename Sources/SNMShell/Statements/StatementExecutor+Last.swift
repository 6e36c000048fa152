import Foundation
import SNMNetwork
import SNMWire

extension StatementExecutor {
  /// Binds `$last` after a statement that sent a request: `status`, `count` (the total of
  /// `Content-Range`, null when not counted), `rows`, `time_ms`, `error` (the server's code, or
  /// null) and `headers` (names in lowercase: `$last.headers.content-range`).
  func bindLast(_ outcome: StatementOutcome?) {
    guard let outcome else { return }
    var object = JSONObject()
    object.append("status", outcome.status.map { .number(JSONNumber($0)) } ?? .null)
    let total = ExpectationCheck.total(of: outcome)
    object.append("count", total.map { .number(JSONNumber($0)) } ?? .null)
    object.append("rows", .number(JSONNumber(outcome.rowCount)))
    object.append(
      "time_ms",
      outcome.milliseconds.map { .number(JSONNumber(Int($0.rounded()))) } ?? .null)
    object.append("error", outcome.failure?.code.map(JSONValue.string) ?? .null)
    var headers = JSONObject()
    for field in outcome.headers?.fields ?? [] {
      let key = field.name.lowercased()
      if headers[key] == nil { headers.append(key, .string(field.value)) }
    }
    object.append("headers", .object(headers))
    variables.withLock { $0["last"] = .object(object) }
  }

  /// Takes back the signal that stopped the scripts, so their `defer` statements can run;
  /// returns it (nil: none).
  func clearInterruption() -> Int32? {
    let signal = interruption
    if signal != nil { stopSignal.store(0, ordering: .relaxed) }
    return signal
  }
}
