"""A Supabase project folder with Edge Functions for the Functions tests (written at test time
into a folder of the test's own), and the local project started from it."""
import json
import pathlib
import textwrap

from conftest import WORKDIR, free_port, run_snm, LocalProject, NO_AUTH_RATE_LIMITS

FUNCTIONS = {
    # Everything the call brought, and the environment a function is promised.
    "hello": """
        Deno.serve(async (req) => {
          const url = new URL(req.url);
          const body = ["GET", "HEAD", "DELETE"].includes(req.method) ? null : await req.text();
          return Response.json({
            message: "Hello " + (body && body.startsWith("{") ? JSON.parse(body).name : "there"),
            method: req.method, path: url.pathname, query: url.search, body,
            contentType: req.headers.get("content-type"),
            authorization: req.headers.get("authorization") !== null,
            env: {
              url: Deno.env.get("SUPABASE_URL"),
              anon: (Deno.env.get("SUPABASE_ANON_KEY") ?? "").startsWith("eyJ"),
              service: (Deno.env.get("SUPABASE_SERVICE_ROLE_KEY") ?? "").startsWith("eyJ"),
              db: (Deno.env.get("SUPABASE_DB_URL") ?? "").startsWith("postgresql://"),
              publishable: JSON.parse(Deno.env.get("SUPABASE_PUBLISHABLE_KEYS") ?? "{}").default?.startsWith("sb_publishable_") ?? false,
              greeting: Deno.env.get("GREETING") ?? null,
              home: Deno.env.get("HOME") ?? null,
            },
          });
        });
    """,
    "text": """
        export default { fetch: () => new Response("plain words", { headers: { "content-type": "text/plain" } }) };
    """,
    "binary": """
        Deno.serve(() => new Response(new Uint8Array([0, 1, 2, 254, 255]), {
          headers: { "content-type": "application/octet-stream" },
        }));
    """,
    # Sends one event, then the second once the test has read the first and made the file.
    "stream": """
        Deno.serve((req) => {
          const gate = new URL(req.url).searchParams.get("gate");
          const encoder = new TextEncoder();
          const body = new ReadableStream({
            async start(controller) {
              controller.enqueue(encoder.encode("data: one\\n\\n"));
              while (gate) {
                try { await Deno.stat(gate); break; } catch { await new Promise((r) => setTimeout(r, 20)); }
              }
              controller.enqueue(encoder.encode("data: two\\n\\n"));
              controller.close();
            },
          });
          return new Response(body, { headers: { "content-type": "text/event-stream" } });
        });
    """,
    "open": """
        Deno.serve(() => Response.json({ open: true }));
    """,
    # Reads the caller's notes through REST with the caller's own token: RLS decides.
    "notes": """
        Deno.serve(async (req) => {
          const answer = await fetch(Deno.env.get("SUPABASE_URL") + "/rest/v1/note?select=body&order=body", {
            headers: { apikey: Deno.env.get("SUPABASE_ANON_KEY"), authorization: req.headers.get("authorization") },
          });
          return new Response(await answer.text(), { status: answer.status, headers: { "content-type": "application/json" } });
        });
    """,
    "broken": """
        Deno.serve((req) => { return new Response("x" ; });
    """,
    "hangs": """
        Deno.serve(() => new Promise(() => {}));
    """,
    "greedy": """
        Deno.serve(() => {
          const hoard = [];
          while (true) hoard.push(new Array(1_000_000).fill(hoard.length));
        });
    """,
    "remote": """
        import { assert } from "jsr:@std/assert@1";
        Deno.serve(() => { assert(true); return new Response("never"); });
    """,
}

CONFIG = """
[api]
port = 54321

[functions.open]
verify_jwt = false

[functions.disabled]
enabled = false
"""

MIGRATION = """
create table public.note (
  id bigint generated always as identity primary key,
  owner uuid not null default auth.uid(),
  body text not null
);
alter table public.note enable row level security;
create policy "owners read their notes" on public.note for select to authenticated
  using (owner = auth.uid());
grant select on public.note to authenticated;
"""


def write_folder(root):
    """supabase/functions/<name>/index.ts for each function, config.toml, functions/.env, and a
    migrations folder; returns (root, migrations)."""
    root = pathlib.Path(root)
    functions = root / "supabase" / "functions"
    for name, source in FUNCTIONS.items():
        (functions / name).mkdir(parents=True, exist_ok=True)
        (functions / name / "index.ts").write_text(textwrap.dedent(source).strip() + "\n")
    (functions / "disabled").mkdir(exist_ok=True)
    (functions / "disabled" / "index.ts").write_text("Deno.serve(() => new Response('no'));\n")
    (functions / ".env").write_text("# for every function\nGREETING='hi there'\n")
    (root / "supabase" / "config.toml").write_text(CONFIG)
    migrations = root / "migrations"
    migrations.mkdir(exist_ok=True)
    (migrations / "0001_note.sql").write_text(MIGRATION)
    return root, migrations


def start_from(root, name, env=None, *flags):
    """`snm local start` in `root` (its supabase/ folder), data in WORKDIR/projects/NAME."""
    data_dir = WORKDIR / "projects" / name
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    if (data_dir / "project.json").exists():
        run_snm("local", "destroy", "--dir", str(data_dir), "--yes", timeout=120)
    for _attempt in range(3):
        port = free_port()
        result = run_snm(
            "local", "start", "--dir", str(data_dir), "--port", str(port), *NO_AUTH_RATE_LIMITS,
            *flags, "--json", env=env, timeout=180, cwd=str(root))
        if "already in use" not in result.stderr:
            break
    assert result.returncode == 0, f"snm local start failed: {result.stderr}"
    return LocalProject(data_dir, port, json.loads(result.stdout))
