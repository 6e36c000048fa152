import SNMNetwork
import SNMQuery
import SNMSupabase

/// Looks at an answer of exactly the row cap's rows to a select or `rpc` that set no limit: the
/// server may have cut it. A select is asked once more for the one row after the cap (`limit=1`,
/// `offset` past the rows that came): a row there proves the answer cut, none proves it whole
/// (each as of that second request). An `rpc` is not called again (it may write), its answer
/// only may be cut. Either way a warning on standard error says how to read the rest.
///
/// ```swift
/// let cut = await RowCapCheck(requests: self, statement: statement).look(at: response)
/// outcome.rowCap = cut   // the cap, for `expect rows`, when the answer is or may be cut
/// ```
struct RowCapCheck {
  let requests: RequestStatements
  let statement: Statement

  /// The answer as an outcome, with the cap when it is cut or may be (``look(at:)``).
  func outcome(of response: SupabaseDBResponse) async -> StatementOutcome {
    var outcome = StatementOutcome.answered(response)
    outcome.rowCap = await look(at: response)
    return outcome
  }

  /// The cap when the answer is cut, or may be (warned); nil when it is whole.
  func look(at response: SupabaseDBResponse) async -> Int? {
    guard let modifiers = Self.uncappedModifiers(of: statement),
      case .success(let cap) = RowCap.read(requests.environment.variables.environment),
      let rows = cap.rows,
      response.document.shape.kind == .array, response.document.shape.count == rows
    else { return nil }
    let isSelect: Bool
    if case .query = statement.kind { isSelect = true } else { isSelect = false }
    var cut: Bool?
    if let total = response.count, modifiers.rare?.count == .exact, modifiers.offset == nil {
      // `count exact` (or planned, estimated): the total says it, no need to ask.
      cut = total > rows
    } else if isSelect {
      cut = await probe(after: rows)
    }
    if cut == false { return nil }
    let how =
      isSelect
      ? "add 'all' to read every row, or set a limit"
      : "an rpc's rows past it need 'limit' and 'offset'"
    let what =
      cut == true
      ? "the answer is cut (more rows match)" : "the answer may be cut"
    requests.output.errors.write(
      "snm: warning: \(rows) rows, the server's row cap: \(what); \(how)\n")
    requests.output.errors.flush()
    return rows
  }

  /// The modifiers of a select or `rpc` whose answer the cap may cut: no `limit`, not one row,
  /// not HEAD, not a plan, not `all`; nil for any other statement.
  static func uncappedModifiers(of statement: Statement) -> Modifiers? {
    let modifiers: Modifiers
    switch statement.kind {
    case .query(let query):
      guard case .select = query.action else { return nil }
      modifiers = query.modifiers
    case .rpc(let rpc):
      modifiers = rpc.modifiers
    default:
      return nil
    }
    guard modifiers.limit == nil, modifiers.single == nil, modifiers.rare?.head == nil,
      modifiers.rare?.plan == nil, modifiers.rare?.all == nil
    else { return nil }
    return modifiers
  }

  /// Whether a row follows the first `rows` (nil when the question could not be asked).
  func probe(after rows: Int) async -> Bool? {
    let window = PageWindow(rows: 1, offset: rows)
    guard let compiled = try? await PagedRead.compile(statement, window, by: requests) else {
      return nil
    }
    guard case .done(let answer) = await requests.environment.sender.send(compiled),
      answer.document.shape.kind == .array
    else { return nil }
    return answer.document.shape.count > 0
  }
}
