/// One function the local project serves, as discovery found it.
///
/// ```swift
/// definition.name          // "hello"
/// definition.entrypoint    // "/work/app/supabase/functions/hello/index.ts"
/// definition.verifyJWT     // true unless [functions.hello] verify_jwt = false
/// ```
package struct FunctionDefinition: Sendable, Equatable {
  package var name: String
  /// The function's folder (the process's working directory).
  package var directory: String
  /// The module Deno loads.
  package var entrypoint: String
  /// Whether a call needs a valid JWT in `Authorization` (hosted's default: true).
  package var verifyJWT: Bool
  /// An import map passed with `--import-map` (nil: Deno finds the folder's `deno.json`).
  package var importMap: String?
}
