import SNMNetwork
import SNMWire

extension SupabaseDBResponse {
  /// Refuses rows without a key the request's select (or `returning`) list names for certain
  /// (``SupabaseDBRequest/certainKeys``): PostgREST answers each item under its name, so
  /// `from t select id` answered `[{"a":1}]` is no PostgREST's answer but a proxy's or a
  /// gateway's, and printing column `a` with exit 0 would pass a CI gate on it. Extra keys are
  /// let be. Rows of one PostgREST answer share their keys (``JSONShape/uniformObjects``): the
  /// first row's are read (the printer reads them too); rows that do not are each looked at.
  ///
  /// ```swift
  /// // select=id answered [{"a":1}]: malformed answer from URL: row 1 without 'id' (its keys:
  /// // "a") (HTTP 200) where rows with the columns asked for belong (...)
  /// ```
  ///
  /// - Throws: ``SNMNetworkError/malformedResponse(url:reason:)`` naming the row, the key asked
  ///   for and the keys it has; after a write, that it may have been applied.
  static func checkKeys(
    of document: JSONDocument, for request: SupabaseDBRequest, answer: SNMResponse
  ) throws(SNMNetworkError) {
    let shape = document.shape
    guard shape.kind == .object || (shape.kind == .array && shape.count > 0) else { return }
    let wanted = request.certainKeys
    guard !wanted.isEmpty else { return }
    let rows = "rows with the columns asked for belong"
    func refusal(_ found: String, _ belonging: String = rows) -> SNMNetworkError {
      let applied = request.endpoint.sentEffect.mayHaveApplied.map { "; " + $0 } ?? ""
      return .malformedResponse(
        url: answer.url,
        reason: "\(found) (HTTP \(answer.status)) where \(belonging) (a proxy or gateway in "
          + "front of the project answering for it?)\(applied)")
    }
    func missing(from keys: [String]) -> String? {
      wanted.first { !keys.contains($0) }
    }
    if shape.kind == .object || shape.uniformObjects {
      guard let keys = document.firstRowKeys, let key = missing(from: keys) else { return }
      guard shape.kind == .array else {
        throw refusal(
          "the row without '\(key)' (\(listed(keys)))",
          "the row with the columns asked for belongs")
      }
      throw refusal("row 1 without '\(key)' (\(listed(keys)))")
    }
    var found: String?
    do {
      try document.withElements { walk in
        var number = 0
        while let row = try walk.next() {
          number += 1
          guard let keys = row.objectValue?.keys else {
            found = "row \(number) without '\(wanted[0])' (it is no object)"
            return
          }
          if let key = missing(from: keys) {
            found = "row \(number) without '\(key)' (\(listed(keys)))"
            return
          }
        }
      }
    } catch let error as JSONParseError {
      throw answer.failure(error)
    } catch {
      throw .malformedResponse(url: answer.url, reason: "\(error)")
    }
    if let found { throw refusal(found) }
  }

  /// `its keys: "a", "b"` (each as a JSON string: a key may hold any character), or `it has no
  /// keys`.
  static func listed(_ keys: [String]) -> String {
    guard !keys.isEmpty else { return "it has no keys" }
    return "its keys: " + keys.map { JSONValue.string($0).serialized() }.joined(separator: ", ")
  }
}
