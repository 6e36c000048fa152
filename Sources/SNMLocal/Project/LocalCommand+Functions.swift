import Foundation
import SNMLocalFunctions

/// The names a function may have (`supabase functions` accepts the same).
public enum FunctionNames {
  public static func isValid(_ name: String) -> Bool { FunctionCatalog.isValidName(name) }
}

extension LocalCommand {
  /// `snm local logs functions [NAME]`: what the functions printed (and what the runner did),
  /// oldest first; only NAME's lines when given.
  func printLogs() throws(LocalProjectError) {
    let path = options.dataDir + "/functions/functions.log"
    guard let data = FileManager.default.contents(atPath: path) else {
      guard FileManager.default.fileExists(atPath: options.dataDir + "/project.json") else {
        throw LocalProjectError(
          .unavailable, "no project in \(options.dataDir) (run snm local start)")
      }
      printError("snm local: no function has run yet (\(path))")
      return
    }
    let name = words.dropFirst().first
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n") {
      if let name {
        // "<time> <name>: <text>"
        let rest = line.drop(while: { $0 != " " }).dropFirst()
        guard rest.hasPrefix(name + ":") else { continue }
      }
      // The runner wrote each line escaped but its tabs: a tab reads as a tab.
      printLine(String(line), keepingTabs: true)
    }
  }

  /// `snm local functions new NAME`: `supabase/functions/NAME/index.ts` in the current folder, a
  /// function that answers `{"message":"Hello <name>!"}` with no remote import, and its
  /// `[functions.NAME]` entry in `supabase/config.toml` (created when missing).
  func runFunctions() throws(LocalProjectError) {
    guard words.first == "new", let name = words.dropFirst().first else {
      throw LocalProjectError(.usage, "usage: snm local functions new NAME")
    }
    let supabase = FileManager.default.currentDirectoryPath + "/supabase"
    let folder = supabase + "/functions/" + name
    let entry = folder + "/index.ts"
    guard !FileManager.default.fileExists(atPath: entry) else {
      throw LocalProjectError(.failed, "supabase/functions/\(name)/index.ts exists already")
    }
    let config = supabase + "/config.toml"
    let existing = FileManager.default.contents(atPath: config).map {
      String(decoding: $0, as: UTF8.self)
    }
    if let existing, existing.contains("[functions.\(name)]") {
      throw LocalProjectError(
        .failed, "supabase/config.toml has a [functions.\(name)] table already")
    }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      try Data(Self.functionTemplate.utf8).write(to: URL(fileURLWithPath: entry))
      var text = existing ?? ""
      if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
      if !text.isEmpty { text += "\n" }
      text += "[functions.\(name)]\nenabled = true\nverify_jwt = true\n"
      try Data(text.utf8).write(to: URL(fileURLWithPath: config), options: .atomic)
    } catch {
      throw LocalProjectError(.failed, "cannot write the function: \(error.localizedDescription)")
    }
    printLine("snm local: created supabase/functions/\(name)/index.ts")
    printLine(
      "  \(existing == nil ? "created" : "added [functions.\(name)] to") supabase/config.toml"
        + (existing == nil ? " with [functions.\(name)]" : ""))
    printLine("  call it (the local project started here serves it):")
    printLine("    snm --local -c 'invoke \(name) {\"name\": \"Functions\"}'")
  }

  static let functionTemplate = """
    // An Edge Function: Deno.serve answers each call (POST /functions/v1/<name> by default).
    // Served locally by `snm local start` run in the folder holding supabase/, as hosted.

    Deno.serve(async (req) => {
      const { name } = await req.json().catch(() => ({ name: "there" }));
      return Response.json({ message: `Hello ${name}!` });
    });

    """
}
