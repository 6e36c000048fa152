import Foundation
import SNMWire

/// Finds the Deno binary the local project runs functions with: `SNM_DENO` when set (it must be
/// an executable file), else `deno` on `PATH`, else the test venv `scripts/install` makes beside
/// snm's build (`.build/venv/bin/deno`, from PyPI's `deno`).
///
/// ```swift
/// switch DenoLocator.locate() {
/// case .success(let path): ...                 // "/work/snm/.build/venv/bin/deno"
/// case .failure(let missing): missing.message  // "deno not found: ..."
/// }
/// ```
package enum DenoLocator {
  /// Why there is no Deno to run.
  package struct Missing: Error, Sendable, Equatable {
    package var message: String
  }

  package static func locate(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: String = Bundle.main.executablePath ?? CommandLine.arguments[0]
  ) -> Result<String, Missing> {
    if let given = environment["SNM_DENO"], !given.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: given) else {
        return .failure(Missing(message: "SNM_DENO names \(given), which is no executable file"))
      }
      return .success(given)
    }
    for directory in (environment["PATH"] ?? "").split(separator: ":") where !directory.isEmpty {
      let candidate = String(directory) + "/deno"
      if FileManager.default.isExecutableFile(atPath: candidate) { return .success(candidate) }
    }
    // .build/debug/snm (or release, or a triple's folder) -> .build/venv/bin/deno
    let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
    var folder = binary.deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = folder.appendingPathComponent("venv/bin/deno").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return .success(candidate) }
      folder = folder.deletingLastPathComponent()
    }
    return .failure(
      Missing(
        message:
          "deno not found: set SNM_DENO to its path, put it on PATH, or run scripts/install"
          + " (it puts Deno in .build/venv/bin/deno)"))
  }

  /// Deno's module cache as the user's own Deno uses it (`DENO_DIR`, else the XDG cache, else
  /// `.cache/deno` in the home folder, ``HomeFolder``), so what `deno cache` fetched is found
  /// offline; the functions themselves get no `HOME`.
  package static func cacheDirectory(_ environment: [String: String]) -> String {
    if let given = environment["DENO_DIR"], !given.isEmpty { return given }
    if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/deno" }
    return HomeFolder.path(home: environment["HOME"]) + "/.cache/deno"
  }
}
