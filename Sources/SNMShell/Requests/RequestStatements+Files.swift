import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire

/// Files in and out of queries: `insert file 'dogs.json'`, `insert csv 'dogs.csv'` and
/// `select ... > 'out.csv'`. Paths are relative to the script's folder (as `run` and Storage
/// uploads are), else to the working directory.
extension RequestStatements {
  /// What `insert file|csv` sends: the file's JSON, or its text for CSV.
  static func bodyReader(directory: String?)
    -> @Sendable (BodyFile, String) throws(Diagnostic) -> JSONValue
  {
    { file, filled throws(Diagnostic) in
      let path = LocalPath.resolve(filled, directory: directory)
      let data: Data
      switch RegularFile.contents(path) {
      case .success(let bytes): data = bytes
      case .failure(let refusal):
        throw Diagnostic(.bodyFileUnreadable(file.path, reason: refusal.reason), at: file.range)
      }
      switch file.format {
      case .csv:
        guard let text = String(data: data, encoding: .utf8) else {
          throw Diagnostic(.bodyFileUnreadable(file.path, reason: "not UTF-8 text"), at: file.range)
        }
        return .string(text)
      case .json:
        do {
          return try JSONValue(parsing: data)
        } catch {
          throw Diagnostic(
            .bodyFileUnreadable(file.path, reason: "not JSON: \(error)"), at: file.range)
        }
      }
    }
  }

  /// `> 'out.csv'`: writes the answer in the format the extension names, beside the file first and
  /// renamed into place, so a failure never leaves half a file. False when it could not be written
  /// (reported).
  func write(
    _ response: SupabaseDBResponse, of request: SupabaseDBRequest, to file: OutputFile,
    directory: String?
  ) async -> StatementFailure? {
    let page: PageFile
    do {
      page = try await PageFile.opening(file, directory: directory, by: self)
    } catch {
      return error
    }
    let writer = page.writer
    var defaultColumn = "value"
    if case .rpc(let function, _) = request.action { defaultColumn = function }
    var unrendered: StatementFailure?
    if request.acceptsCSV, case .string(let text) = response.value {
      writer.write(text)
    } else {
      let shown: OutputFormat =
        switch page.format {
        case .csv: .csv
        case .json: .json
        case .ndjson: .ndjson
        case .table: .table
        }
      unrendered = renderReporting(
        response.document,
        with: ResultRenderer(
          format: shown, style: RenderStyle(csvCRLF: settings.csvCRLF)),
        defaultColumn: defaultColumn,
        columns: nil, total: response.count, arrived: response.response.arrived, to: writer)
    }
    if let failure = page.putInPlace(unrendered: unrendered, by: self) { return failure }
    let rows = response.document.shape.kind == .array ? response.document.shape.count : 1
    note("\(rows == 1 ? "1 row" : "\(rows) rows") written to \(file.path)")
    return nil
  }
}

extension RequestStatements {
  /// The `> 'file'` of a query or `rpc`.
  static func outputFile(of statement: Statement) -> OutputFile? {
    switch statement.kind {
    case .query(let query): query.modifiers.rare?.outputFile
    case .rpc(let rpc): rpc.modifiers.rare?.outputFile
    default: nil
    }
  }

  /// A write sent with `Prefer: tx=rollback` that the server did not roll back (its
  /// `Preference-Applied` lacks `tx=rollback`: PostgREST's `db-tx-end` is `commit`), said as the
  /// statement's failure; nil when it was rolled back or not asked to be.
  static func refusedRollback(_ request: SupabaseDBRequest, _ response: SupabaseDBResponse)
    -> String?
  {
    guard let prefer = request.endpoint.headers["Prefer"], mentionsRollback(prefer),
      prefer.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == "tx=rollback"
      })
    else { return nil }
    let applied = response.headers["Preference-Applied"] ?? ""
    if applied.split(separator: ",").contains(where: {
      $0.trimmingCharacters(in: .whitespaces) == "tx=rollback"
    }) {
      return nil
    }
    return "the server did not roll the write back (Preference-Applied: "
      + (applied.isEmpty ? "none" : applied)
      + "): it was committed; the project's PostgREST must allow tx overrides (db-tx-end = commit-allow-override)"
  }

  /// Whether `tx=rollback` is anywhere in `value`, byte for byte: most writes ask for
  /// `return=minimal` alone, and are let go before Foundation splits and trims the list.
  static func mentionsRollback(_ value: String) -> Bool {
    let wanted = Array("tx=rollback".utf8)
    let bytes = Array(value.utf8)
    guard bytes.count >= wanted.count else { return false }
    for start in 0...(bytes.count - wanted.count)
    where bytes[start] == wanted[0] && bytes[start..<start + wanted.count].elementsEqual(wanted) {
      return true
    }
    return false
  }

  /// A duration in milliseconds.
  static func milliseconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}
