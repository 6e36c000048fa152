import SNMNetwork
import SNMQuery
import SNMSupabase

/// Looks at an answer of exactly the row cap's rows to a select or `rpc` that set no limit: the
/// server may have cut it. A select is asked once more for the one row after the cap (`limit=1`,
/// `offset` past the rows that came): a row there proves the answer cut, none proves it whole
/// (each as of that second request). An `rpc` is not called again (it may write), its answer
/// only may be cut. Either way a warning on standard error says how to read the rest. With
/// `count exact` the total tells a cut answer of any size: one cut by a cap other than the one
/// snm knows (a hosted project's API settings) says which cap to set.
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
      response.document.shape.kind == .array
    else { return nil }
    let isSelect: Bool
    if case .query = statement.kind { isSelect = true } else { isSelect = false }
    let received = response.document.shape.count
    let how =
      isSelect
      ? "add 'all' to read every row, or set a limit"
      : "an rpc's rows past it need 'limit' and 'offset'"
    let exactTotal =
      modifiers.rare?.count == .exact && modifiers.offset == nil ? response.count : nil
    if let total = exactTotal, received < total, received != cap.rows {
      // `count exact` over every row, and fewer came: a cap other than the one snm knows cut them.
      let known = cap.rows.map { "not the \($0) snm knows" } ?? "where SNM_MAX_ROWS says none"
      warn(
        "\(received) of \(total) rows: the server's row cap (db-max-rows) is \(received), "
          + "\(known) (set \(RowCap.variable)=\(received)); the answer is cut; \(how)")
      return received
    }
    guard let rows = cap.rows, received == rows else { return nil }
    var cut: Bool?
    if let total = exactTotal {
      // `count exact`: the total says it, no need to ask.
      cut = total > rows
    } else if isSelect {
      cut = await probe(after: rows)
    }
    if cut == false { return nil }
    let what =
      cut == true
      ? "the answer is cut (more rows match)" : "the answer may be cut"
    warn("\(rows) rows, the server's row cap: \(what); \(how)")
    return rows
  }

  /// Says `text` on standard error as a warning.
  private func warn(_ text: String) {
    requests.output.errors.write("snm: warning: \(text)\n")
    requests.output.errors.flush()
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
