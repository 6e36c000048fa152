import Foundation
import SNMCodegen
import SNMLocal
import SNMNetwork
import SNMShell
import SNMWire

/// `snm gen swift`: the Swift types of a project's schemas, written to standard output or
/// `--out FILE`, or with `--check` compared with FILE (exit 1 when it differs).
///
/// ```
/// snm gen swift --local --schema public --out Sources/DB/Schema.swift
/// snm gen swift --local --out Sources/DB/Schema.swift --check      # CI: fails on drift
/// ```
/// The local project (`--local`, `--dir DIR`, or nothing naming a project) is read from its
/// catalog; any other project from the OpenAPI document its REST API serves.
struct GenCommand: Sendable, Equatable {
  var schemas: [String] = []
  var access: SwiftFileWriter.Access = .internal
  var out: String?
  var check = false
  /// `--dir DIR`: the local project in that folder.
  var directory: String?
  var options = ShellOptions()

  /// Checks what was given once every argument has been read.
  func complete(language: [String], options: ShellOptions) throws(UsageError) -> GenCommand {
    try ValueParsing.onlyWord("swift", in: language, after: "gen", naming: "language")
    if check && out == nil {
      throw UsageError("option '--check' compares with the file of '--out FILE': give it")
    }
    if directory != nil, options.url != nil || options.profile != nil {
      throw UsageError(
        "--dir names the local project in a folder and \(options.url != nil ? "--url" : "--profile")"
          + " another project: give one of them")
    }
    var command = self
    command.options = options
    if command.schemas.isEmpty { command.schemas = ["public"] }
    return command
  }

  func run() async throws -> ExitCode {
    let catalog = try await GenSource.catalog(
      schemas: schemas, directory: directory, options: options)
    let text = SwiftFileWriter(catalog: catalog, access: access).file()
    guard let out else {
      StandardStreams.writeOutput(text)
      return .success
    }
    if check { return try compare(text, with: out) }
    try write(text, to: out)
    StandardStreams.writeError("snm gen: wrote \(VisibleText.escaped(out)) (\(summary(catalog)))\n")
    return .success
  }

  /// `3 tables and views, 1 enum, 2 functions`.
  func summary(_ catalog: DatabaseCatalog) -> String {
    func count(_ number: Int, _ one: String, _ many: String) -> String {
      "\(number) \(number == 1 ? one : many)"
    }
    return [
      count(catalog.relations.count, "table or view", "tables and views"),
      count(catalog.enums.count, "enum", "enums"),
      count(catalog.composites.count, "composite type", "composite types"),
      count(catalog.functions.count, "function", "functions"),
    ].joined(separator: ", ")
  }

  /// Exit 0 when `path` holds `text`, else 1 with the first line that differs.
  func compare(_ text: String, with path: String) throws -> ExitCode {
    let shown = VisibleText.escaped(path)
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure("cannot read \(shown): no such file, or not readable")
    }
    let current = String(decoding: data, as: UTF8.self)
    if current == text {
      StandardStreams.writeOutput("\(shown) is up to date\n")
      return .success
    }
    let old = current.split(separator: "\n", omittingEmptySubsequences: false)
    let new = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line =
      (zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(old.count, new.count)) + 1
    let wanted = line <= new.count ? VisibleText.escaped(String(new[line - 1])) : "(the end)"
    StandardStreams.writeError(
      ("snm gen: \(shown) differs from what the schema gives, first at line \(line): the schema "
        + "gives '\(wanted)'; run it again without --check to write it\n"))
    return .failure
  }

  /// Writes beside `path` and renames (``BesideFile``), so a reader never sees half a file; a
  /// new source file gets the mode the umask gives, as an editor's would.
  func write(_ text: String, to path: String) throws {
    do throws(TransportFileError) {
      let beside = try BesideFile(destination: path, newFileMode: nil)
      try beside.write(contentsOf: Array(text.utf8))
      try beside.finish()
    } catch {
      throw CommandFailure("cannot write \(VisibleText.escaped(path)): \(error.reason)")
    }
  }
}
