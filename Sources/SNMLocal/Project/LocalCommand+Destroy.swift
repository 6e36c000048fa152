import Foundation
import SNMWire

extension LocalCommand {
  /// `snm local destroy [--dir DIR] [--yes]`: after a confirmation (the folder's name typed at the
  /// terminal, or `--yes`), stops the project and deletes its data; prints what was deleted.
  func runDestroy(_ controller: LocalProjectController) throws(LocalProjectError) -> Int32 {
    let state = try controller.existingState()
    let name = URL(fileURLWithPath: state.dataDir).lastPathComponent
    let question =
      "snm local: destroy the project in \(state.dataDir)? Its database (\(state.layout.baseDir)),"
      + " users, files and keys are deleted.\ntype the folder's name (\(name)) to confirm: "
    guard try Confirmation(yes: yes, action: "destroy").ask(question, accept: [name])
    else {
      printError("snm local: not destroyed (the name typed was not \(name))")
      return 1
    }
    let (deleted, kept) = try controller.destroy()
    if json {
      printJSON(
        JSONValue.object([
          .init("destroyed", .bool(true)), .init("deleted", .array(deleted.map { .string($0) })),
          .init("kept", .array(kept.map { .string(state.dataDir + "/" + $0) })),
        ]))
      return 0
    }
    var lines = ["snm local: destroyed the project in \(state.dataDir)"]
    lines += deleted.map { "  deleted  \($0)" }
    if !kept.isEmpty {
      lines.append(
        "  kept     \(state.dataDir): it holds files snm did not make ("
          + kept.joined(separator: ", ") + ")")
    }
    printLine(lines.joined(separator: "\n"))
    return 0
  }
}
