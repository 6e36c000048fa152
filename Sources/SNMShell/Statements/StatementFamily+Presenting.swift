import Foundation
import SNMNetwork
import SNMWire

extension StatementFamily {
  /// Prints rows in the current format; at a terminal, through the pager when they are longer
  /// than the screen.
  @discardableResult
  func render(_ value: JSONValue, defaultColumn: String = "value", total: Int? = nil) async
    -> StatementFailure?
  {
    await render(JSONDocument(value), defaultColumn: defaultColumn, total: total)
  }

  /// Prints a document in the current format, a row at a time when it has not been parsed; at a
  /// terminal, through the pager when the rows are longer than the screen. The failure when the
  /// rows could not be printed (reported: the statement fails with exit code 3).
  /// `framing` is text printed before and after the rows (`describe`'s title and notes);
  /// `arrived`, what the answer's rows were rendered into while they came (``ArrivingRows``).
  @discardableResult
  func render(
    _ document: JSONDocument, defaultColumn: String = "value", columns: [String]? = nil,
    total: Int? = nil, framing: (before: String, after: String) = ("", ""),
    arrived: (any ArrivingElementsConsumer)? = nil
  ) async -> StatementFailure? {
    await present(
      document, defaultColumn: defaultColumn, columns: columns, total: total, framing: framing,
      arrived: arrived
    ).failure
  }

  /// ``render(_:defaultColumn:columns:total:framing:arrived:)``, saying also how long the pager
  /// had the rows (`\timing` leaves the reading out of the rendering time).
  ///
  /// At the prompt, Ctrl-C (or SIGTERM) meanwhile stops standard output and the rows' writer
  /// (`\o`'s file) at once, a write waiting on a slow terminal or FIFO included: the prompt then
  /// says the statement was cancelled (it ended the session; a script's signal watcher stops the
  /// output itself).
  func present(
    _ document: JSONDocument, defaultColumn: String = "value", columns: [String]? = nil,
    total: Int? = nil, framing: (before: String, after: String) = ("", ""),
    arrived: (any ArrivingElementsConsumer)? = nil
  ) async -> Presented {
    guard !settings.quiet else { return Presented() }
    guard environment.interactive else {
      return await presentRows(
        document, defaultColumn: defaultColumn, columns: columns, total: total, framing: framing,
        arrived: arrived)
    }
    // The rows' writer (`\o`'s file, a FIFO's slow reader too) and standard output.
    let writers =
      output.results === output.terminal ? [output.terminal] : [output.results, output.terminal]
    return await environment.sender.signals.watch(onSignal: { signal in
      for writer in writers { writer.stopWriting(signal: signal) }
    }) {
      await presentRows(
        document, defaultColumn: defaultColumn, columns: columns, total: total, framing: framing,
        arrived: arrived)
    }
  }

  private func presentRows(
    _ document: JSONDocument, defaultColumn: String, columns: [String]?, total: Int?,
    framing: (before: String, after: String), arrived: (any ArrivingElementsConsumer)?
  ) async -> Presented {
    let results = output.results
    // Each CSV result is a block of its own (header, records); an empty line parts two blocks
    // written to the same place.
    if settings.format == .csv, output.followsCSV(results) {
      results.write(settings.csvCRLF ? "\r\n" : "\n")
    }
    guard results.isTerminal else {
      results.write(framing.before)
      let failure = renderReporting(
        document,
        with: ResultRenderer(
          format: settings.format,
          style: RenderStyle(nullText: settings.nullText, csvCRLF: settings.csvCRLF)),
        defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
        to: results)
      results.write(framing.after)
      results.flush()
      return Presented(failure: failure)
    }
    let style = RenderStyle(
      width: Terminal.columns(), colour: settings.colour, terminal: true,
      nullText: settings.nullText, autoExpand: settings.autoExpand, csvCRLF: settings.csvCRLF)
    let buffer = OutputWriter()
    buffer.write(framing.before)
    if let failure = renderReporting(
      document, with: ResultRenderer(format: settings.format, style: style),
      defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
      to: buffer)
    {
      return Presented(failure: failure)
    }
    buffer.write(framing.after)
    let text = buffer.captured
    if environment.interactive && settings.pager && Pager.isNeeded(for: text),
      let pager = Pager.command()
    {
      let opened = ContinuousClock.now
      if await Pager.show(text, through: pager, signals: environment.sender.signals) {
        return Presented(paged: ContinuousClock.now - opened)
      }
    }
    results.write(text)
    results.flush()
    return Presented()
  }

  /// Renders; the failure when the body stopped being JSON half-way (which the check on arrival
  /// should have caught), reported as a malformed answer.
  func renderReporting(
    _ document: JSONDocument, with renderer: ResultRenderer, defaultColumn: String,
    columns: [String]?, total: Int?, arrived: (any ArrivingElementsConsumer)? = nil,
    to writer: OutputWriter
  ) -> StatementFailure? {
    do {
      try renderer.render(
        document, defaultColumn: defaultColumn, columns: columns, total: total, arrived: arrived,
        to: writer)
      return nil
    } catch let refused as SpilledRowsTooLarge {
      return failure(.server, refused.description)
    } catch let failed as TransportFileError {
      // The rows' text set aside in a temporary file could not be read back: as the spill's.
      return failure(.server, failed.description)
    } catch {
      return failure(.unreachable, "the body is not JSON: \(error)")
    }
  }
}
