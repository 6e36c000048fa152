import SNMWire

extension SNMNetworkProvider {
  /// Why `response`, a 2xx answer to `endpoint`, is no answer to it, or nil: an empty body where
  /// rows, a listing or a result belong (``Endpoint/answerBody``), or JSON of another type than
  /// the request gets (``Endpoint/answerShape``: `null`, `{}` or a number where rows belong; a
  /// user without its `id`) is no result but a proxy, gateway or server answering for the
  /// project, and a CI gate must not pass on it. After a request that may have written, the
  /// failure says so (``Endpoint/Effect``). A body saved to a file (a download) is never
  /// refused here.
  ///
  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` when a body of the wrong
  ///   type is not JSON at all (the reason any JSON answer gives).
  static func refusal(of response: SNMResponse, for endpoint: Endpoint)
    throws(SNMNetworkError) -> SNMNetworkError?
  {
    guard response.savedPath == nil else { return nil }
    let found: String
    let belonging: String
    if response.body.isEmpty {
      switch endpoint.answerBody {
      case .optional: return nil
      case .requiredUnlessNoContent where response.status == 204: return nil
      case .required, .requiredUnlessNoContent: break
      }
      found = "an empty body"
      belonging = "the request's result"
    } else {
      guard let shape = endpoint.answerShape else { return nil }
      let kind = try topLevelKind(of: response)
      if kind == shape.kind {
        guard let key = shape.key else { return nil }
        // Only a small object names a key (an auth answer): parsed here, and again by its reader.
        guard (try response.json()[key] ?? .null) == .null else { return nil }
        found = "an object without '\(key)'"
      } else {
        found = described(kind)
      }
      belonging = shape.described
    }
    let applied = endpoint.sentEffect.mayHaveApplied.map { "; " + $0 } ?? ""
    return .malformedResponse(
      url: response.url,
      reason: "\(found) (HTTP \(response.status)) where \(belonging) belongs (a proxy or gateway "
        + "in front of the project answering for it?)\(applied)")
  }

  /// The JSON type of `response`'s body (not empty): the shape the transport checked as it
  /// arrived, else the first byte past white space for an array or object (named by it in
  /// valid JSON; the body is parsed later, and refused there if it is not JSON), else the value
  /// parsed (a scalar, which no ``Endpoint/AnswerShape`` is: only on the way to a refusal).
  static func topLevelKind(of response: SNMResponse) throws(SNMNetworkError) -> JSONShape.Kind {
    if let shape = response.checkedShape { return shape.kind }
    for byte in response.body {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        continue
      case UInt8(ascii: "["): return .array
      case UInt8(ascii: "{"): return .object
      default: return JSONShape(of: try response.json()).kind
      }
    }
    return JSONShape(of: try response.json()).kind
  }

  /// `null`, `an object`, `a number`: a JSON type as a message names what came.
  static func described(_ kind: JSONShape.Kind) -> String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
