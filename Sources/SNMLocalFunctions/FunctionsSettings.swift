/// What the local project's Edge Functions runner needs to know: where the functions are, the
/// Deno it runs them with, the project they call back, and the limits of a call.
///
/// ```swift
/// var settings = FunctionsSettings(
///   folder: "/work/app/supabase/functions", runtimeDirectory: dataDir + "/functions",
///   deno: DenoLocator.locate(), projectURL: "http://127.0.0.1:54321", databaseURL: url)
/// settings.wallClockSeconds = 2     // a call that has not answered by then is 546 WORKER_LIMIT
/// ```
package struct FunctionsSettings: Sendable {
  /// `supabase/functions`: one folder per function (`<name>/index.ts`), `.env`, shared code.
  package var folder: String
  /// `supabase/config.toml`, whose changes restart a function (nil: no file).
  package var configFile: String?
  /// Its `[functions.<name>]` entries, as the project folder's reader reads them at the moment.
  package var entries: FunctionEntry.Reader
  /// Where the runner keeps its bootstrap script and the functions' log (the project's data).
  package var runtimeDirectory: String
  /// The Deno binary, or why there is none.
  package var deno: Result<String, DenoLocator.Missing>
  /// `SUPABASE_URL` as the functions see it (the gateway, reachable from them).
  package var projectURL: String
  /// `SUPABASE_DB_URL`.
  package var databaseURL: String
  /// Seconds a call may take before the function's process is ended and the call answered
  /// 546 WORKER_LIMIT (hosted: 400 s on paid plans, 150 s on the free one).
  package var wallClockSeconds: Double = 400
  /// Seconds a function's process may take to start listening before the call is answered
  /// 503 BOOT_ERROR (a remote import that hangs, a top-level await that never ends).
  package var bootSeconds: Double = 30
  /// Calls of the project's functions answered at once, all functions together: each holds a
  /// gateway worker while it waits for its function, so this is their share of the gateway's
  /// 32; a call past it is answered 546 WORKER_LIMIT at once.
  package var maxConcurrentCalls = 8
  /// The V8 heap a function may use (MiB), as hosted's 256 MB; past it the call is 546.
  package var memoryMiB = 256

  package init(
    folder: String, configFile: String? = nil, entries: @escaping FunctionEntry.Reader = { [] },
    runtimeDirectory: String, deno: Result<String, DenoLocator.Missing>, projectURL: String,
    databaseURL: String
  ) {
    self.folder = folder
    self.configFile = configFile
    self.entries = entries
    self.runtimeDirectory = runtimeDirectory
    self.deno = deno
    self.projectURL = projectURL
    self.databaseURL = databaseURL
  }

  /// The functions' log: each line a function prints, with the time and its name.
  package var logFile: String { runtimeDirectory + "/functions.log" }
}
