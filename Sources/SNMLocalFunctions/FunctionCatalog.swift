import Foundation

/// Finds the functions of a `supabase/functions` folder as `supabase functions serve` does: a
/// folder `<name>/index.ts` whose name matches `^[A-Za-z][A-Za-z0-9_-]*$`, or a
/// `[functions.<name>]` entry of `config.toml` (``FunctionEntry``, read by the project folder's
/// reader); a function absent from the file is enabled and verifies JWTs.
///
/// ```swift
/// let catalog = FunctionCatalog(
///   folder: ".../supabase/functions", configFile: ".../config.toml", entries: { try read() })
/// try catalog.definition(named: "hello")   // nil: 404 Function not found
/// ```
/// Read at each call (the files are small), so a function added while the project runs is served.
package struct FunctionCatalog: Sendable {
  package var folder: String
  /// `config.toml`, whose changes restart a function (nil: no file).
  package var configFile: String?
  /// The file's `[functions.<name>]` entries, read again at each call.
  package var entries: FunctionEntry.Reader

  /// The `supabase/` folder the config's paths are relative to.
  var supabaseFolder: String { (folder as NSString).deletingLastPathComponent }

  package static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic
    else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
          || scalar == "-")
    }
  }

  /// The function called `name`, or nil when there is none (or it is disabled).
  ///
  /// - Throws: what ``entries`` throws when `config.toml` cannot be read.
  package func definition(named name: String) throws -> FunctionDefinition? {
    guard Self.isValidName(name) else { return nil }
    return definition(named: name, entry: try entries().last { $0.name == name })
  }

  func definition(named name: String, entry: FunctionEntry?) -> FunctionDefinition? {
    guard Self.isValidName(name) else { return nil }
    if entry?.enabled == false { return nil }
    let directory = folder + "/" + name
    let entrypoint = entry?.entrypoint.map(resolve) ?? directory + "/index.ts"
    guard FileManager.default.fileExists(atPath: entrypoint) else { return nil }
    var importMap = entry?.importMap.map(resolve)
    if importMap == nil, !hasDenoConfig(directory) {
      for candidate in [directory + "/import_map.json", folder + "/import_map.json"]
      where FileManager.default.fileExists(atPath: candidate) {
        importMap = candidate
        break
      }
    }
    return FunctionDefinition(
      name: name, directory: (entrypoint as NSString).deletingLastPathComponent,
      entrypoint: entrypoint, verifyJWT: entry?.verifyJWT ?? true, importMap: importMap)
  }

  /// Every function served, by name (disabled ones left out).
  package func names() -> [String] {
    var candidates = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    let entries = (try? entries()) ?? []
    candidates.formUnion(entries.map(\.name))
    return candidates.filter { name in
      definition(named: name, entry: entries.last { $0.name == name }) != nil
    }.sorted()
  }

  func hasDenoConfig(_ directory: String) -> Bool {
    ["deno.json", "deno.jsonc"].contains {
      FileManager.default.fileExists(atPath: directory + "/" + $0)
    }
  }

  func resolve(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : supabaseFolder + "/" + path
    return (absolute as NSString).standardizingPath
  }

  /// What the function's process depends on, as (path, modification time, size) folded into
  /// one number: its own folder, the shared files beside the function folders (`_shared/`,
  /// `.env`, import maps) and `config.toml`. A change restarts the function at its next call.
  package func fingerprint(of definition: FunctionDefinition) -> Int {
    var hasher = Hasher()
    var roots = [definition.directory]
    let top = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for entry in top.sorted() where entry != definition.name {
      let path = folder + "/" + entry
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      // Other functions' folders are theirs; files and `_shared`-style folders are everyone's.
      if !isDirectory.boolValue || !Self.isValidName(entry) { roots.append(path) }
    }
    if let configFile { roots.append(configFile) }
    for root in roots { Self.fold(root, into: &hasher, depth: 0) }
    return hasher.finalize()
  }

  static func fold(_ path: String, into hasher: inout Hasher, depth: Int) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }
    hasher.combine(path)
    hasher.combine(info.st_mtim.tv_sec)
    hasher.combine(info.st_mtim.tv_nsec)
    hasher.combine(info.st_size)
    guard (info.st_mode & S_IFMT) == S_IFDIR, depth < 8 else { return }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    for entry in entries.sorted() where entry != "node_modules" {
      fold(path + "/" + entry, into: &hasher, depth: depth + 1)
    }
  }

  /// `supabase/functions/.env` as name -> value (`NAME=value`, `export` and quotes allowed, `#`
  /// comments); no file is no values.
  package func environmentFile() -> [String: String] {
    guard let data = FileManager.default.contents(atPath: folder + "/.env") else { return [:] }
    var values: [String: String] = [:]
    for raw in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
      var line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasPrefix("export ") { line = String(line.dropFirst(7)) }
      guard let equals = line.firstIndex(of: "=") else { continue }
      let name = line[..<equals].trimmingCharacters(in: .whitespaces)
      var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if value.count >= 2, let first = value.first, first == "\"" || first == "'",
        value.last == first
      {
        value = String(value.dropFirst().dropLast())
        if first == "\"" { value = value.replacingOccurrences(of: "\\n", with: "\n") }
      } else if let hash = value.range(of: " #") {
        value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
      }
      if !name.isEmpty { values[name] = value }
    }
    return values
  }
}
