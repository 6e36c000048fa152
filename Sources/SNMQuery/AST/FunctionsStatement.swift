/// `invoke ...` and `request ...`: an Edge Function's call, and a raw HTTP request under the
/// project's URL (docs/language.md, "Edge Functions and raw requests").
///
/// ```
/// invoke hello {"name": "Bori"}                    -- POST /functions/v1/hello, JSON
/// invoke reports/daily put file 'r.csv' header x-region 'eu-west-1'
/// request get '/rest/v1/dog_profile?select=id'
/// request post '/storage/v1/bucket' body {"name": "avatars"}
/// ```
public enum FunctionsStatement: Sendable, Equatable {
  /// `invoke <name>[/sub/path] [<method>] [<body>] [header <name> <value>]... [> '<file>']`
  case invoke(FunctionCall)
  /// `request <method> '<path>' [body <body>] [header <name> <value>]... [> '<file>']`
  case request(RawRequest)

  /// The `> 'file'` the answer's body goes to, if any.
  public var outputFile: OutputFile? {
    switch self {
    case .invoke(let call): call.outputFile
    case .request(let request): request.outputFile
    }
  }

  /// The values the statement uses (for checking variables).
  public var values: [ValueNode] {
    switch self {
    case .invoke(let call):
      [call.function] + (call.body?.values ?? []) + call.headers.flatMap { [$0.name, $0.value] }
    case .request(let request):
      [request.path] + (request.body?.values ?? [])
        + request.headers.flatMap { [$0.name, $0.value] }
    }
  }
}

/// `invoke ...`: the function (a path: `hello`, `reports/daily`, `'hello?x=1'`), the method
/// (POST unless one is written), the body and extra headers.
public struct FunctionCall: Sendable, Equatable {
  public var function: ValueNode
  /// Upper-case (`GET`); nil: POST, as the official clients default.
  public var method: String?
  public var body: RequestBody?
  public var headers: [RequestHeader] = []
  /// `> 'file'`: the answer's body goes to the file, byte for byte, instead of the screen.
  public var outputFile: OutputFile?
}

/// `request ...`: the method, a path under the project's URL (with its query), body, headers.
public struct RawRequest: Sendable, Equatable {
  /// Upper-case (`GET`).
  public var method: String
  public var path: ValueNode
  public var body: RequestBody?
  public var headers: [RequestHeader] = []
  /// `> 'file'`: the answer's body goes to the file, byte for byte, instead of the screen.
  public var outputFile: OutputFile?
}

/// What a call sends: a value (an object or array goes as JSON, a string as text) or a file.
public enum RequestBody: Sendable, Equatable {
  case value(ValueNode)
  /// `file '<path>'`: the bytes of a file on this machine.
  case file(ValueNode)

  public var values: [ValueNode] {
    switch self {
    case .value(let node), .file(let node): [node]
    }
  }
}

/// `header <name> <value>`.
public struct RequestHeader: Sendable, Equatable {
  public var name: ValueNode
  public var value: ValueNode
}
