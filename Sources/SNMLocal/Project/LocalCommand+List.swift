import Foundation
import SNMWire

extension LocalCommand {
  /// `snm local list [--prune [--unknown]] [--yes] [--json]`: every local project snm knows on
  /// this machine; `--prune` deletes the clusters of those whose folder is gone (after a
  /// confirmation, or `--yes`), `--unknown` also the stopped ones made before snm kept records.
  func runList() throws(LocalProjectError) -> Int32 {
    let registry = ProjectRegistry.standard()
    let known = KnownProject.all(in: registry)
    guard prune else {
      printList(known)
      return 0
    }
    let doomed = known.filter { $0.isOrphan || (pruneUnknown && $0.isUnknown) }
    guard !doomed.isEmpty else {
      if json {
        printJSON(JSONValue.object([.init("deleted", .array([]))]))
      } else {
        printLine("snm local: nothing to prune (no stopped project whose folder is gone)")
      }
      printUnknownHint(known)
      return 0
    }
    let total = doomed.reduce(Int64(0)) { $0 + $1.sizeBytes }
    var question = "snm local: delete these \(doomed.count) stopped clusters "
    question += "(\(KnownProject.readableSize(total)))?\n"
    question += doomed.map { "  \($0.clusterDir)  (\(Self.folderText($0)))\n" }.joined()
    question += "[y/N] "
    guard
      try Confirmation(yes: yes, action: "list --prune").ask(
        question, accept: ["y", "Y", "yes"])
    else {
      printError("snm local: nothing deleted")
      return 1
    }
    var deleted: [KnownProject] = []
    var failures: [String] = []
    for project in doomed {
      do throws(LocalProjectError) {
        try project.remove(from: registry)
        deleted.append(project)
      } catch {
        failures.append(error.message)
      }
    }
    if json {
      printJSON(
        JSONValue.object([.init("deleted", .array(deleted.map(\.json)))]))
    } else {
      var lines = ["snm local: deleted \(deleted.count) cluster\(deleted.count == 1 ? "" : "s")"]
      lines += deleted.map {
        "  deleted  \($0.clusterDir)  (\(Self.folderText($0)), "
          + "\(KnownProject.readableSize($0.sizeBytes)))"
      }
      printLine(lines.joined(separator: "\n"))
    }
    guard failures.isEmpty else {
      throw LocalProjectError(.failed, failures.joined(separator: "; "))
    }
    if !pruneUnknown { printUnknownHint(known) }
    return 0
  }

  func printList(_ known: [KnownProject]) {
    if json {
      printJSON(JSONValue.array(known.map(\.json)))
      return
    }
    guard !known.isEmpty else {
      printLine("snm local: no local projects on this machine")
      return
    }
    let rows = known.map { project in
      [
        project.projectDir ?? "?", project.port.map(String.init) ?? "-",
        project.running ? "running" : "stopped", KnownProject.readableSize(project.sizeBytes),
        project.projectDir == nil
          ? "unknown" : project.folderExists ? "exists" : "gone",
        project.clusterDir + "/data",
      ]
    }
    let header = ["FOLDER", "PORT", "STATE", "SIZE", "FOLDER STATE", "DATA DIR"]
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    let format = { (row: [String]) in
      zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    let orphans = known.filter(\.isOrphan)
    var lines = [format(header)] + rows.map(format)
    if !orphans.isEmpty {
      lines.append(
        "\(orphans.count) stopped whose folder is gone "
          + "(\(KnownProject.readableSize(orphans.reduce(0) { $0 + $1.sizeBytes }))): "
          + "snm local list --prune deletes them")
    }
    printLine(lines.joined(separator: "\n"))
    printUnknownHint(known)
  }

  /// Says how many stopped clusters have no record of their folder, and how to delete them.
  func printUnknownHint(_ known: [KnownProject]) {
    let unknown = known.filter(\.isUnknown)
    guard !unknown.isEmpty, !json else { return }
    printError(
      "snm local: \(unknown.count) stopped clusters in \(ClusterLayout.rootClustersDir) were made "
        + "before snm kept a record of their folder; starting or stopping their project records "
        + "it, snm local list --prune --unknown deletes them")
  }

  static func folderText(_ project: KnownProject) -> String {
    guard let folder = project.projectDir else { return "folder unknown" }
    return project.folderExists ? folder : "\(folder), gone"
  }
}
