import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

/// The file of `> 'out.csv'` (and of `select ... all > 'out.csv'`): written beside its place
/// (``BesideFile``: a name no one can plant first, 0600 or the mode of the file it replaces) as
/// the pages come, renamed into place once the last one is in, removed when a page fails, so a
/// failure never leaves part of the rows behind as if they were all.
struct PageFile {
  /// The name as written, for messages.
  let name: String
  let format: OutputFileFormat
  let writer: OutputWriter
  private let file: BesideFile

  /// Opens the file's stand-in; throws the failure when it cannot (reported).
  static func opening(_ file: OutputFile, directory: String?, by requests: RequestStatements)
    async
    throws(StatementFailure) -> PageFile
  {
    let filled: String
    do {
      filled = try ValueEvaluator.text(file.literal, in: requests.environment.variables)
    } catch {
      throw requests.failure(.server, error.message.text)
    }
    let path = LocalPath.resolve(filled, directory: directory)
    let beside: BesideFile
    do throws(TransportFileError) {
      beside = try BesideFile(destination: path)
    } catch {
      throw requests.failure(.server, "cannot write '\(file.path)': \(error.reason)")
    }
    return PageFile(
      name: file.path, format: OutputFileFormat(path: file.path) ?? .table,
      writer: OutputWriter(fd: beside.fd), file: beside)
  }

  /// Removes the stand-in: nothing of the read is left.
  func discard() {
    file.abandon()
  }

  /// Writes `whole` in `renderedAtTheEnd` when the pages were not written as they came (the
  /// table format, or no row), then puts the file in place; the failure when it could not
  /// (reported, nothing left behind). `columns` head a result without rows.
  func finish(
    _ whole: JSONDocument, renderedAtTheEnd: OutputFormat?, columns: [String]?,
    by requests: RequestStatements
  ) -> StatementFailure? {
    var unrendered: StatementFailure?
    if let format = renderedAtTheEnd {
      unrendered = requests.renderReporting(
        whole,
        with: ResultRenderer(
          format: format, style: RenderStyle(csvCRLF: requests.settings.csvCRLF)),
        defaultColumn: "value",
        columns: columns, total: nil, to: writer)
    }
    if let failure = putInPlace(unrendered: unrendered, by: requests) { return failure }
    let rows = whole.shape.count
    requests.note("\(rows == 1 ? "1 row" : "\(rows) rows") written to \(name)")
    return nil
  }

  /// Flushes and syncs the stand-in and renames it over the file's place; when `unrendered`
  /// (the rows could not be written) or any step fails, removes it and returns the failure.
  func putInPlace(unrendered: StatementFailure?, by requests: RequestStatements)
    -> StatementFailure?
  {
    writer.flush()
    if let unrendered {
      file.abandon()
      return unrendered
    }
    do throws(TransportFileError) {
      try file.finish()
    } catch {
      return requests.failure(.server, "cannot write '\(name)': \(error.reason)")
    }
    return nil
  }
}
