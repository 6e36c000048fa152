extension FunctionsStatement {
  /// One spelling of the statement (values quoted, methods lowercase), which parses back to it.
  var canonicalText: String {
    func value(_ node: ValueNode) -> String { node.value.canonicalText }
    func tail(_ body: RequestBody?, _ headers: [RequestHeader], bodyWord: String) -> String {
      var text = ""
      switch body {
      case .value(let node)?: text += bodyWord + value(node)
      case .file(let node)?: text += bodyWord + "file " + value(node)
      case nil: break
      }
      for header in headers { text += " header " + value(header.name) + " " + value(header.value) }
      return text
    }
    let file = outputFile.map { " > " + Value.string($0.literal).canonicalText } ?? ""
    switch self {
    case .invoke(let call):
      var text = "invoke " + value(call.function)
      if let method = call.method { text += " " + method.lowercased() }
      return text + tail(call.body, call.headers, bodyWord: " ") + file
    case .request(let request):
      return "request " + request.method.lowercased() + " " + value(request.path)
        + tail(request.body, request.headers, bodyWord: " body ") + file
    }
  }
}
