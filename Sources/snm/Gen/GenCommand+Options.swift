import SNMCodegen
import SNMShell

extension GenCommand {
  /// `snm gen`'s own options, on the command line's one table.
  static let options: [CommandLineOption] = [
    CommandLineOption(
      "--schema", value: "S,...", valueHint: ": a schema name, or names separated by commas",
      for: [.gen], help: "the schemas to write (public); repeatable"
    ) { parsed, value throws(UsageError) in
      let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
        throw UsageError("option '--schema' needs schema names separated by commas, not '\(value)'")
      }
      for name in names where !parsed.gen.schemas.contains(name) { parsed.gen.schemas.append(name) }
    },
    CommandLineOption(
      "--access", value: "LEVEL", valueHint: ": public|internal", for: [.gen],
      help: "the access level of the declarations (internal)",
      completion: .words(SwiftFileWriter.Access.allCases.map(\.rawValue))
    ) { parsed, value throws(UsageError) in
      guard let access = SwiftFileWriter.Access(rawValue: value) else {
        throw UsageError("option '--access' needs public or internal, not '\(value)'")
      }
      parsed.gen.access = access
    },
    CommandLineOption(
      "--out", value: "FILE", for: [.gen], help: "write FILE (else standard output)",
      completion: .files
    ) { parsed, value throws(UsageError) in parsed.gen.out = value },
    CommandLineOption(
      "--check", for: [.gen], help: "write nothing: exit 1 when FILE differs from the schema's"
    ) { parsed, _ throws(UsageError) in parsed.gen.check = true },
    CommandLineOption(
      "--dir", value: "DIR", for: [.gen],
      help: "the local project in DIR (default: $XDG_DATA_HOME/snm/local)",
      completion: .directories
    ) { parsed, value throws(UsageError) in parsed.gen.directory = ValueParsing.absolute(value) },
  ]
}
