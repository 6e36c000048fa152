import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// The Realtime statements (`listen`, `unlisten`, `broadcast`, `track`, `untrack`,
/// `expect [no] event`): a family of their own, given the statement, the environment, the
/// writers and the shell's ``RealtimeSession``, returning what happened.
///
/// ```swift
/// let family = RealtimeStatements(environment: environment, output: output, session: realtime)
/// let result = await family.run(statement)
/// ```
/// `listen` returns once the subscription is live; `expect event` returns the event it took
/// (the runner binds it to `$event`). A socket that cannot open is exit code 3; a refused join,
/// a subscription that never went live or an expectation not met, 1.
struct RealtimeStatements: StatementFamily {
  let environment: StatementEnvironment
  let output: StatementOutput
  /// The shell's socket and subscriptions, kept between statements.
  let session: RealtimeSession

  var scope: VariableScope { environment.variables }

  func run(_ statement: RealtimeStatement) async -> StatementResult {
    if case .expectEvent(let expectation) = statement {
      return await expect(expectation, output: output)
    }
    if case .check(let target) = statement { return await check(target) }
    let call: RealtimeCall
    do {
      guard let compiled = try RealtimeCompiler(scope: scope).compile(statement) else {
        return .succeeded(nil)
      }
      call = compiled
    } catch {
      return .failed(output.failure(.usage, error.message.text))
    }
    let word = Self.word(statement)
    if case .leave(let name) = call.action {
      return await unlisten(name, word: word, output: output)
    }
    let project = environment.project
    let token: String
    do {
      token = try await environment.sessions.requestToken() ?? project.key
    } catch {
      return .failed(output.failure(.unreachable, "\(word): \(error)"))
    }
    let socket: RealtimeSocket
    do {
      socket = try await session.socket(
        projectURL: project.url.absoluteString, key: project.key, token: token,
        certificateAuthorities: environment.connection.provider.configuration
          .certificateAuthorities)
    } catch {
      let advice = UnfoundProjectHost.advice(for: error, project: project).map { "\nsnm: " + $0 }
      return .failed(output.failure(.unreachable, "\(word): \(error)" + (advice ?? "")))
    }
    switch call.action {
    case .join(let name, let config):
      if session.subscription(name)?.listening == true {
        return .failed(
          output.failure(
            .usage, "listen: already listening to '\(name)'; 'unlisten \(name)' first"))
      }
      if session.subscription(name) != nil { await session.leave(name) }
      do {
        try await session.join(
          name, config: config, listening: true, socket: socket, token: token)
      } catch {
        return .failed(output.failure(.server, Self.notLive(error, name: name, config: config)))
      }
      if environment.interactive {
        // At the prompt each event prints as it arrives (and stays queued for `expect event`).
        let format = environment.settings.format
        let terminal = output.terminal
        session.setPrinter { event in
          terminal.write(event.shownLine(format: format, terminal: terminal.isTerminal) + "\n")
          terminal.flush()
        }
        output.tell("listening to \(name)")
      }
      return .succeeded(nil)
    case .broadcast(let name, let event, let payload):
      if let failure = await ensureJoined(
        name, presence: false, word: word, socket: socket, token: token, output: output)
      {
        return .failed(failure)
      }
      let message: JSONValue = ["type": "broadcast", "event": .string(event), "payload": payload]
      do {
        _ = try await socket.push(RealtimeCall.topic(name), event: "broadcast", payload: message)
      } catch {
        return .failed(output.failure(.server, "broadcast: \(error)"))
      }
      return .succeeded(nil)
    case .track(let name, let payload):
      if let failure = await ensureJoined(
        name, presence: true, word: word, socket: socket, token: token, output: output)
      {
        return .failed(failure)
      }
      return await presence(
        name, ["type": "presence", "event": "track", "payload": payload], word: word,
        socket: socket, output: output)
    case .untrack(let name):
      guard session.subscription(name)?.presence == true else {
        return .failed(output.failure(.usage, "untrack: not tracking on '\(name)'"))
      }
      return await presence(
        name, ["type": "presence", "event": "untrack"], word: word, socket: socket,
        output: output)
    default:
      return .succeeded(nil)
    }
  }

  private func presence(
    _ name: String, _ message: JSONValue, word: String, socket: RealtimeSocket,
    output: StatementOutput
  ) async -> StatementResult {
    do {
      _ = try await socket.push(RealtimeCall.topic(name), event: "presence", payload: message)
    } catch {
      return .failed(output.failure(.server, "\(word): \(error)"))
    }
    return .succeeded(nil)
  }

  /// Joins `name` to send on it, unless it is joined (with presence, when `presence`).
  private func ensureJoined(
    _ name: String, presence: Bool, word: String, socket: RealtimeSocket, token: String,
    output: StatementOutput
  ) async -> StatementFailure? {
    if let joined = session.subscription(name), joined.presence || !presence { return nil }
    if let joined = session.subscription(name), joined.listening {
      return output.failure(
        .usage,
        "\(word): '\(name)' is a table subscription; track on a channel ('listen channel ...')")
    }
    if session.subscription(name) != nil { await session.leave(name) }
    do {
      try await session.join(
        name, config: RealtimeChannelConfig(presence: presence), listening: false,
        socket: socket, token: token)
    } catch {
      return output.failure(
        .server, Self.notLive(error, name: name, config: RealtimeChannelConfig()))
    }
    return nil
  }

  private func unlisten(_ name: String?, word: String, output: StatementOutput) async
    -> StatementResult
  {
    guard let name else {
      await session.leaveAll()
      return .succeeded(nil)
    }
    guard session.subscription(name) != nil else {
      let names = session.names.sorted()
      return .failed(
        output.failure(
          .usage,
          "unlisten: not listening to '\(name)'"
            + (names.isEmpty ? "" : " (listening to \(names.joined(separator: ", ")))")))
    }
    await session.leave(name)
    return .succeeded(nil)
  }

  /// `expect [no] event ...`: the next matching event, taken from its queue.
  private func expect(_ expectation: RealtimeExpectation, output: StatementOutput) async
    -> StatementResult
  {
    let names = expectation.subscription.map { [$0.text] } ?? []
    if let name = names.first, session.subscription(name)?.listening != true {
      return .failed(
        output.failure(.usage, "expect event: not listening to '\(name)'; 'listen \(name)' first"))
    }
    if names.isEmpty, session.names.isEmpty {
      return .failed(
        output.failure(.usage, "expect event: not listening to anything; 'listen' first"))
    }
    let matcher: RealtimeEventMatcher
    do {
      matcher = try RealtimeEventMatcher(expectation, scope: scope)
    } catch {
      return .failed(output.failure(.usage, error.message.text))
    }
    let seconds = Double(expectation.milliseconds) / 1000
    let deadline = ContinuousClock.now + .milliseconds(expectation.milliseconds)
    // Ctrl-C (or SIGTERM) stops the wait, at the prompt as in scripts.
    let transfer = await environment.sender.cancellable(refreshing: false) { [session] in
      await session.next(from: names, until: deadline, matching: matcher.matches)
    }
    let take: RealtimeTake
    switch transfer {
    case .done(let taken): take = taken
    case .interrupted(let signal): return .interrupted(signal)
    case .failed(let error): return .failed(output.failure(.server, "expect event: \(error)"))
    }
    let what = Self.describe(expectation)
    let expected = expectation.negated ? "no \(what) within \(Self.seconds(seconds))" : what
    switch take {
    case .cancelled:
      return .interrupted(SIGINT)
    case .ended(let end):
      // Nothing more can arrive: neither a yes nor a no, and no use waiting out the time. The
      // server closing the channel answered (exit 1); the stream or project gone is exit 3.
      return .failed(
        output.failure(
          end.isClosedByServer ? .server : .unreachable,
          "expect \(expectation.negated ? "no " : "")event: cannot tell whether \(what) came: "
            + end.ended))
    case .event(let found):
      guard expectation.negated else {
        return .succeeded(.answered(value: found.value, status: nil))
      }
      RequestTrace.current?.note(
        ["~ the event that came (\(what))", "~ " + found.shown(limit: RealtimeEvent.traceBytes)])
      return .failed(
        StatementFailure(
          .expectation(
            expected: expected, found: found.shown(limit: RealtimeEvent.messageBytes))))
    case .none:
      let dropped = session.dropped(names)
      if expectation.negated {
        guard dropped > 0 else { return .succeeded(nil) }
        // A dropped event may have been the one this says did not come: no answer is not a yes.
        return .failed(
          StatementFailure(
            .expectation(expected: expected, found: "cannot tell: \(Self.dropped(dropped))")))
      }
      var detail = "none within \(Self.seconds(seconds))"
      if dropped > 0 { detail += "; \(Self.dropped(dropped))" }
      let recent = session.queued(names).suffix(3)
      if !recent.isEmpty {
        detail +=
          "; last events received: "
          + recent.map { $0.shown(limit: RealtimeEvent.messageBytes) }.joined(separator: ", ")
        // A failing file's report (JUnit, TAP) keeps them whole, up to a bound said when met.
        RequestTrace.current?.note(
          ["~ the last \(recent.count) event(s) received, oldest first (\(expected): none)"]
            + recent.map { "~ " + $0.shown(limit: RealtimeEvent.traceBytes) })
      } else if names.first.flatMap({ session.subscription($0)?.postgres }) == true {
        detail +=
          " (nothing arrived; the usual causes: the table not in the supabase_realtime"
          + " publication, RLS hiding the row from this user, or a filter on a column a delete's"
          + " old record lacks without REPLICA IDENTITY FULL; 'snm realtime check \(names[0])' looks)"
      }
      return .failed(StatementFailure(.expectation(expected: expected, found: detail)))
    }
  }

  /// `realtime check ...`: the report on the results output; a problem fails the statement
  /// (exit 1), so a script can gate on it.
  private func check(_ target: RealtimeCheckTarget) async -> StatementResult {
    let report = await RealtimeCheck(target: target).findings(in: environment)
    output.results.write(report.text)
    output.results.flush()
    let subject = "realtime check " + RealtimeCheck.subject(target)
    switch report.code {
    case .success:
      return .succeeded(nil)
    case .usage:
      return .failed(output.failure(.usage, "\(subject): could not run (above)"))
    case .unreachable:
      return .failed(
        output.failure(.unreachable, "\(subject): could not reach the project (above)"))
    default:
      let count = report.problems
      return .failed(
        StatementFailure(
          .expectation(
            expected: "no problem found by \(subject)",
            found: count == 1 ? "1 problem (above)" : "\(count) problems (above)")))
    }
  }

  static func describe(_ expectation: RealtimeExpectation) -> String {
    var text = "an event"
    if let kind = expectation.kind { text = "a '\(kind.text)' event" }
    if let subscription = expectation.subscription { text += " from \(subscription.text)" }
    if expectation.filter != nil { text += " matching its where" }
    return text
  }

  /// Says that `count` events went unread, and why.
  static func dropped(_ count: Int) -> String {
    "\(count) event(s) were dropped unread (a subscription keeps the last "
      + "\(RealtimeSession.queueLimit) unread events, \(RealtimeSession.queueBytes >> 20) MiB for all "
      + "subscriptions together; expect them sooner or listen with a filter)"
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value))s" : "\(value)s"
  }

  static func word(_ statement: RealtimeStatement) -> String {
    switch statement {
    case .listen: "listen"
    case .unlisten: "unlisten"
    case .broadcast: "broadcast"
    case .track: "track"
    case .untrack: "untrack"
    case .expectEvent: "expect event"
    case .check: "realtime check"
    }
  }

  /// Why a join did not go live, with the likely cause.
  static func notLive(_ failure: RealtimeJoinFailure, name: String, config: RealtimeChannelConfig)
    -> String
  {
    switch failure {
    case .refused(let error):
      var text = "listen \(name): \(error)"
      if config.isPrivate {
        text += "\n(a private channel needs a select policy on realtime.messages this user passes)"
      }
      return text
    case .notLive(let message):
      return "listen \(name): the server did not subscribe to the table: \(message)"
        + "\n(is the table in the supabase_realtime publication? "
        + "alter publication supabase_realtime add table \(name))"
    case .timedOut(let seconds):
      return "listen \(name): joined, but the server did not say \"Subscribed to PostgreSQL\" "
        + "within \(seconds)s (is Realtime's replication running, with wal_level=logical?)"
    case .ended(let why):
      return "listen \(name): \(why)"
    }
  }
}
