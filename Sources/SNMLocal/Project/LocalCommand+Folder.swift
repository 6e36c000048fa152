import Foundation

extension LocalCommand {
  /// The project folder this command works on: `--project DIR`, else the current folder when it
  /// holds `supabase/`, else (for `start`, `restart`, `reset`) the one the data dir remembers.
  /// Without `--dir` the folder's own data dir is used (ProjectFolder.defaultDataDir). `start`,
  /// `restart` and `reset` read its config.toml and print, once, the keys the local project
  /// leaves aside and the flags that override the file; the other commands only find its data.
  ///
  /// - Throws: `LocalProjectError` (usage) for a `--project` without `supabase/`, a malformed
  ///   config.toml (`file:line:column: ...`), or a value of the wrong type.
  func useProjectFolder(_ controller: inout LocalProjectController) throws(LocalProjectError) {
    guard action != .list, action != .serve else { return }
    var folder = try ProjectFolder.find(
      given: options.projectDir, in: FileManager.default.currentDirectoryPath)
    if let found = folder, !given.contains("dir") {
      controller.options.dataDir = found.defaultDataDir()
    }
    guard [.start, .restart, .reset].contains(action) else { return }
    if folder == nil,
      let remembered = try ProjectState.load(dataDir: controller.options.dataDir)?
        .projectDir
    {
      folder = ProjectFolder(root: remembered)
    }
    guard let folder else { return }
    let config = try ProjectFolderConfig(folder: folder)
    let notes = config.notes + config.overrides(given: given, options: options)
    if !notes.isEmpty {
      printError(notes.joined(separator: "\n"))
    }
    controller.folder = config
  }
}
