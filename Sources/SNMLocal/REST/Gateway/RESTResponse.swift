/// What the REST gateway answers: status, headers and body bytes, ready for the HTTP server.
public struct RESTResponse: Sendable, Equatable {
  public var status: Int
  /// Header names as PostgREST writes them (`Content-Range`, `Content-Type`).
  public var headers: [(String, String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public static func == (lhs: RESTResponse, rhs: RESTResponse) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body
      && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
  }

  /// The first value of a header (case-insensitive name).
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.0.lowercased() == lowered }?.1
  }

  /// The body as UTF-8 text.
  public var text: String { String(decoding: body, as: UTF8.self) }
}
