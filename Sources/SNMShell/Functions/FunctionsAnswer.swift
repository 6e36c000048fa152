import Foundation
import SNMNetwork
import SNMWire

/// An answer to `invoke` or `request`, read by its media type as functions-js reads it: JSON,
/// text (`text/*`, event streams included), or bytes.
///
/// ```swift
/// let answer = FunctionsAnswer(response, milliseconds: 12)
/// answer.media        // .json(document) for application/json
/// answer.value        // what `let x = invoke ...` binds
/// ```
struct FunctionsAnswer: Sendable {
  enum Media: Sendable {
    case json(JSONDocument)
    case text(String)
    case binary
    case empty
  }

  let status: Int
  let headers: HTTPHeaders
  let body: Data
  let media: Media
  let milliseconds: Double

  init(_ response: SNMResponse, milliseconds: Double) {
    status = response.status
    headers = response.headers
    body = response.body
    self.milliseconds = milliseconds
    let type = (response.headers["Content-Type"] ?? "").lowercased()
    let essence =
      type.split(separator: ";").first.map {
        $0.trimmingCharacters(in: .whitespaces)
      } ?? ""
    if response.body.isEmpty {
      media = .empty
    } else if essence == "application/json" || essence.hasSuffix("+json"),
      let value = try? JSONValue(parsing: Array(response.body))
    {
      media = .json(JSONDocument(value))
    } else if essence.hasPrefix("text/") || essence == "application/json"
      || essence.hasSuffix("+json") || essence.hasSuffix("xml")
      || essence == "application/x-www-form-urlencoded",
      let text = String(data: response.body, encoding: .utf8)
    {
      media = .text(text)
    } else {
      media = .binary
    }
  }

  /// Hosted's relay marks its own failures so (the function was never reached).
  var isRelayError: Bool { headers["x-relay-error"]?.lowercased() == "true" }

  /// The body as text (for messages), bytes as their size.
  var bodyText: String {
    switch media {
    case .json, .text: String(decoding: body, as: UTF8.self)
    case .binary: binaryNote
    case .empty: ""
    }
  }

  /// `5 bytes of application/octet-stream`.
  var binaryNote: String {
    "\(body.count) bytes of " + VisibleText.escaped(headers["Content-Type"] ?? "unknown type")
  }

  /// The error code an answer names: a JSON body's `code` (`BOOT_ERROR`) or `error`, else the status.
  var errorCode: String {
    if case .json(let document) = media {
      let value = document.value
      if let code = value["code"]?.stringValue ?? value["error_code"]?.stringValue
        ?? value["error"]?.stringValue
      {
        return code
      }
    }
    return String(status)
  }

  /// What `let x = invoke ...` binds: JSON as itself, text as a string, bytes as their size and
  /// type, nothing as null.
  var value: JSONValue {
    switch media {
    case .json(let document): document.value
    case .text(let text): .string(text)
    case .binary:
      .object([
        .init("size", .number(JSONNumber(body.count))),
        .init("type", .string(headers["Content-Type"] ?? "")),
      ])
    case .empty: .null
    }
  }

  /// What `expect` and `$last` read: the status, headers, time, and the body as `value`.
  var outcome: StatementOutcome {
    var outcome = StatementOutcome.answered(value: value, status: status)
    outcome.headers = headers
    outcome.milliseconds = milliseconds
    outcome.keepsBody = true
    return outcome
  }
}
