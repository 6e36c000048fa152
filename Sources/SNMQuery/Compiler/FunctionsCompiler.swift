import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// Compiles `invoke` and `request` into the request they send (a ``FunctionsRequest``): the
/// project's URL + `/functions/v1/<name>` or the path written, the method, the body as the
/// official clients send it (an object or array as JSON, a string as text, a file's bytes), the
/// headers written.
///
/// ```swift
/// let request = try FunctionsCompiler(projectURL: url, scope: scope).compile(statement)
/// request.endpoint.url     // "http://127.0.0.1:54321/functions/v1/hello"
/// ```
/// The project's key and the session's token are the provider's to add. A path that would leave
/// the project's URL, a name that is no function's or a value that cannot be filled in is a
/// `Diagnostic` and nothing is sent.
public struct FunctionsCompiler: Sendable {
  public var projectURL: String
  public var scope: VariableScope
  public var baseDirectory: String?

  public init(
    projectURL: String, scope: VariableScope = VariableScope(), baseDirectory: String? = nil
  ) {
    self.projectURL = projectURL
    self.scope = scope
    self.baseDirectory = baseDirectory
  }

  /// The `invoke` or `request` statement inside `statement` (itself, or in `explain` or `let`).
  public static func functionsStatement(_ statement: Statement) -> FunctionsStatement? {
    statement.inner { kind in
      if case .functions(let functions) = kind { functions } else { nil }
    }
  }

  /// Compiles an `invoke` or `request` (or one inside `explain` or `let`).
  ///
  /// - Throws: `Diagnostic` at the value that cannot be filled in or is no function or path.
  public func compile(_ statement: Statement) throws(Diagnostic) -> FunctionsRequest {
    let functions = try statement.requiring(Self.functionsStatement(statement))
    switch functions {
    case .invoke(let call):
      let name = try text(call.function)
      if let problem = Checker.functionNameProblem(name) {
        throw Diagnostic(.notAFunctionName(problem), at: call.function.range)
      }
      var request = FunctionsRequest(
        kind: .invoke(name: name), method: call.method ?? "POST",
        endpoint: Endpoint(baseURL: projectURL, path: "/functions/v1/" + Self.encoded(name)))
      try attach(call.body, headers: call.headers, to: &request)
      return request
    case .request(let raw):
      let path = try text(raw.path)
      guard Checker.isProjectPath(path), !path.unicodeScalars.contains(where: Self.isUnsafe) else {
        throw Diagnostic(.notAProjectPath("'\(path)'"), at: raw.path.range)
      }
      var request = FunctionsRequest(
        kind: .request, method: raw.method,
        endpoint: Endpoint(baseURL: projectURL, path: Self.encoded(path)))
      try attach(raw.body, headers: raw.headers, to: &request)
      return request
    }
  }

  func attach(_ body: RequestBody?, headers: [RequestHeader], to request: inout FunctionsRequest)
    throws(Diagnostic)
  {
    var contentType: String?
    switch body {
    case .value(let node)?:
      let value = try json(node)
      request.body = value
      if case .string(let text) = value {
        request.endpoint.body = Data(text.utf8)
        contentType = "text/plain"
      } else {
        request.endpoint.body = Data(value.serialized().utf8)
        contentType = "application/json"
      }
    case .file(let node)?:
      let path = LocalPath.resolve(try text(node), directory: baseDirectory)
      request.endpoint.bodyFile = path
      request.file = path
      contentType = "application/octet-stream"
    case nil:
      break
    }
    for header in headers {
      let name = try text(header.name)
      let value = try text(header.value)
      if name.unicodeScalars.contains(where: Self.isUnsafe)
        || value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" })
      {
        throw Diagnostic(
          .builderRefused("a header name or value with a control character or a space"),
          at: header.name.range.union(header.value.range))
      }
      request.endpoint.headers[name] = value
    }
    // The caller's Content-Type (any case) wins, as the official clients let it.
    if let contentType, request.endpoint.headers["Content-Type"] == nil {
      request.endpoint.headers["Content-Type"] = contentType
    }
    if let method = HTTPMethod(rawValue: request.method) {
      request.endpoint.method = method
    }
  }

  func text(_ node: ValueNode) throws(Diagnostic) -> String {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return "placeholder"
    }
    return try ValueEvaluator.text(node, in: scope)
  }

  func json(_ node: ValueNode) throws(Diagnostic) -> JSONValue {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return .string("placeholder")
    }
    return try ValueEvaluator.json(node, in: scope)
  }

  /// Whitespace and control characters, which no path or header name may hold.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value <= 0x20 || scalar.value == 0x7F
  }

  /// `path` with what a URL cannot hold as written percent-encoded (its `/`, `?`, `&`, `=`, `%`
  /// kept: the user wrote them).
  static func encoded(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case _ where "-._~/?&=%:@!$'()*+,;".utf8.contains(byte):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += String(format: "%%%02X", byte)
      }
    }
    return out
  }
}
