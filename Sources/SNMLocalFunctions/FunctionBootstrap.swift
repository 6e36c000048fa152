/// The module each function's Deno process runs first (`boot.js` in the runtime folder): it
/// makes the function's `Deno.serve` (or its `export default { fetch }`) listen on the Unix
/// socket the gateway named (in a folder only the project's user may open: no other local user
/// reaches a function past the gateway's `verify_jwt`) and says so on standard output, turns a
/// handler that throws into an answer the gateway maps to 500 WORKER_ERROR, offers the
/// `EdgeRuntime` calls a plain Deno lacks, and names an import that cannot be loaded.
///
/// The line it prints when listening: `\u{1}snm-listening <nonce>`; the header of a thrown
/// handler's answer: `x-snm-worker-error: <nonce>` (the nonce is the process's own, so a function
/// cannot forge either).
enum FunctionBootstrap {
  static let fileName = "boot.js"

  static let marker = "\u{1}snm-listening "

  static let errorHeader = "x-snm-worker-error"

  static let source = #"""
    // snm local: runs one Edge Function under a stock Deno (written by snm; do not edit).
    const entry = Deno.env.get("SNM_FUNCTION_ENTRY");
    const nonce = Deno.env.get("SNM_FUNCTION_NONCE");
    const name = Deno.env.get("SNM_FUNCTION_NAME");
    const socket = Deno.env.get("SNM_FUNCTION_SOCKET");
    for (const key of ["SNM_FUNCTION_ENTRY", "SNM_FUNCTION_NONCE", "SNM_FUNCTION_NAME", "SNM_FUNCTION_SOCKET"]) {
      Deno.env.delete(key);
    }
    // Standard input is the gateway's lifeline: when it ends, so does the function.
    (async () => {
      const buffer = new Uint8Array(64);
      try {
        while ((await Deno.stdin.read(buffer)) !== null) { /* nothing is sent */ }
      } catch { /* closed */ }
      Deno.exit(0);
    })();
    const serve = Deno.serve;
    let serving = false;

    function guarded(handler) {
      return async (request, info) => {
        try {
          return await handler(request, info);
        } catch (error) {
          console.error(error);
          return new Response(null, { status: 500, headers: { "x-snm-worker-error": nonce } });
        }
      };
    }

    Deno.serve = (...args) => {
      if (serving) throw new Error("Deno.serve called twice: a function serves one handler");
      serving = true;
      const options = args.find((arg) => arg && typeof arg === "object") ?? {};
      const handler = args.find((arg) => typeof arg === "function") ?? options.handler;
      if (typeof handler !== "function") throw new TypeError("Deno.serve needs a handler");
      return serve({
        path: socket,
        onListen: () => console.log(`\u0001snm-listening ${nonce}`),
      }, guarded(handler));
    };

    const pending = new Set();
    globalThis.EdgeRuntime = {
      waitUntil(promise) {
        const task = Promise.resolve(promise).catch((error) => console.error(error));
        pending.add(task);
        task.finally(() => pending.delete(task));
        return task;
      },
      scheduleTermination() {},
    };

    try {
      const module = await import(entry);
      if (!serving && typeof module.default?.fetch === "function") {
        Deno.serve((request, info) => module.default.fetch(request, info));
      }
      if (!serving) {
        console.error(
          `${name}: the entrypoint neither calls Deno.serve nor exports default { fetch }`,
        );
        Deno.exit(70);
      }
    } catch (error) {
      const text = String(error?.message ?? error);
      console.error(`${name}: failed to boot: ${text}`);
      const remote = text.match(/(?:JSR package manifest for|npm package) '([^']+)'/) ??
        text.match(/(?:Import|Module not found|Specifier not found in cache:) ['"]((?:https?|jsr|npm):[^'"]+)['"]/);
      if (remote) {
        const kind = text.startsWith("JSR") ? "jsr:" : text.includes("npm") ? "npm:" : "";
        console.error(
          `${name}: the import ${kind}${remote[1]} cannot be fetched (no network, or not in Deno's cache):` +
            ` map it to a local file in the function's import map (deno.json "imports", or` +
            ` import_map in [functions.${name}] of supabase/config.toml), or cache it with deno cache`,
        );
      }
      Deno.exit(70);
    }
    """#
}
