import SNMNetwork
import SNMSupabase
import SNMWire

/// The request an `invoke` or `request` sends, and how `explain` shows it: the request, the
/// curl command, and the supabase-swift call that sends the same.
///
/// ```swift
/// request.endpoint          // what the provider sends (it adds the key and the token)
/// request.swiftCall()       // try await supabase.functions.invoke("hello", options: ...)
/// ```
public struct FunctionsRequest: Sendable {
  public enum Kind: Sendable, Equatable {
    case invoke(name: String)
    case request
  }

  public var kind: Kind
  /// Upper-case, as sent (`OPTIONS` included, which `HTTPMethod` has no case for).
  public var method: String
  public var endpoint: Endpoint
  /// The body as written (for explain), nil when none or a file.
  public var body: JSONValue?
  /// The file whose bytes are the body.
  public var file: String?

  /// The explain block: method and path, URL, headers, body, and the supabase-swift call.
  public func readableBlock() -> String {
    var lines = ["\(method) \(URLPath.of(endpoint.url))"]
    lines.append("url      " + endpoint.url)
    let headers = endpoint.headers.map { "\($0.name): \($0.value)" }
    for (index, header) in headers.enumerated() {
      lines.append((index == 0 ? "headers  " : "         ") + header)
    }
    if let file {
      lines.append("body     the bytes of \(file)")
    } else if let body {
      lines.append("body     " + body.serialized())
    }
    lines.append("swift    " + swiftCall())
    return lines.joined(separator: "\n") + "\n"
  }

  /// `explain json`.
  public func explainJSON() -> JSONValue {
    var headers = JSONObject()
    for field in endpoint.headers { headers[field.name] = .string(field.value) }
    var object: JSONObject = [
      "method": .string(method), "path": .string(URLPath.of(endpoint.url)),
      "url": .string(endpoint.url), "headers": .object(headers), "body": body ?? .null,
    ]
    if let file { object["upload"] = .string(file) }
    object["swift"] = .string(swiftCall())
    return .object(object)
  }

  /// `explain curl`: the key and the token as `$SUPABASE_ANON_KEY` and `$TOKEN`, never their
  /// values.
  public func curlCommand() -> String {
    var parts: [String] = []
    switch method {
    case "GET": parts.append("curl " + ShellWord.quoted(endpoint.url))
    case "HEAD": parts.append("curl --head " + ShellWord.quoted(endpoint.url))
    default: parts.append("curl -X \(method) " + ShellWord.quoted(endpoint.url))
    }
    parts.append("-H \"apikey: $SUPABASE_ANON_KEY\"")
    parts.append("-H \"Authorization: Bearer $TOKEN\"")
    for field in endpoint.headers {
      parts.append("-H " + ShellWord.quoted(field.name + ": " + field.value))
    }
    if let file {
      parts.append("--data-binary " + ShellWord.quoted("@" + file))
    } else if let body {
      let text = body.stringValue ?? body.serialized()
      parts.append("-d " + ShellWord.quoted(text))
    }
    return parts.joined(separator: " \\\n  ")
  }

  /// The supabase-swift call that sends the same request: `functions.invoke` for a function,
  /// for a raw request the URLSession call with the client's headers.
  public func swiftCall() -> String {
    switch kind {
    case .invoke(let name):
      var options: [String] = []
      if method != "POST" { options.append("method: .\(method.lowercased())") }
      let headers = endpoint.headers.filter {
        $0.name.lowercased() != "content-type" || file != nil
      }
      if !headers.isEmpty {
        options.append(
          "headers: ["
            + headers.map { SwiftLiteral.string($0.name) + ": " + SwiftLiteral.string($0.value) }
            .joined(separator: ", ") + "]")
      }
      if let file {
        options.append(
          "body: try Data(contentsOf: URL(fileURLWithPath: \(SwiftLiteral.string(file))))")
      } else if let body {
        if case .string(let text) = body {
          options.append("body: " + SwiftLiteral.string(text))
        } else {
          options.append("body: " + SwiftLiteral.string(body.serialized()) + " /* JSON */")
        }
      }
      let call = "try await supabase.functions.invoke(" + SwiftLiteral.string(name)
      return options.isEmpty
        ? call + ")"
        : call + ", options: FunctionInvokeOptions(" + options.joined(separator: ", ") + "))"
    case .request:
      return "var request = URLRequest(url: supabaseURL.appending(path: "
        + SwiftLiteral.string(URLPath.of(endpoint.url)) + ")); request.httpMethod = "
        + SwiftLiteral.string(method) + "; try await URLSession.shared.data(for: request)"
        + " /* with the apikey and Authorization headers supabase-swift sends */"
    }
  }
}
