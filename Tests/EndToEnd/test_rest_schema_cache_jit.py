"""The REST gateway's schema-cache query runs without JIT, while the cluster keeps Postgres's
(and hosted Supabase's) default `jit = on` for every other statement.

The query's estimated cost is far above `jit_above_cost`, so with JIT on Postgres compiled it with
LLVM at every gateway start and every schema reload, most of its work (1.35G of its backend's
1.66G instructions, 0.9 s of wall time). The gateway turns JIT off for that one transaction
(`set local jit to off`). auto_explain, loaded into the gateway's sessions, logs each statement's
plan with a `JIT:` section when the statement was compiled; with `jit_above_cost = 0` every other
statement is, which shows that JIT works in this cluster and that the test can see it.
"""
import pathlib
import re
import subprocess
import time

import httpx
import pytest

from conftest import run_snm

LOG_ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", re.M)


def _pg_lib_dir():
    result = subprocess.run(["pg_config", "--pkglibdir"], capture_output=True, text=True)
    return pathlib.Path(result.stdout.strip()) if result.returncode == 0 else None


def _plans(log_text):
    """auto_explain's entries of the log: (query text, whether the plan has a JIT section)."""
    starts = [match.start() for match in LOG_ENTRY.finditer(log_text)] + [len(log_text)]
    plans = []
    for start, end in zip(starts, starts[1:]):
        entry = log_text[start:end]
        if "plan:" not in entry or "Query Text:" not in entry:
            continue
        query = entry.split("Query Text:", 1)[1].strip()
        plans.append((query, "\n\tJIT:" in entry or "\nJIT:" in entry))
    return plans


def test_the_schema_cache_query_runs_without_jit(start_extra_project):
    lib = _pg_lib_dir()
    if lib is None or not (lib / "llvmjit.so").exists() or not (lib / "auto_explain.so").exists():
        pytest.skip("this Postgres has no LLVM JIT or no auto_explain")
    project = start_extra_project("schema-cache-jit")
    # JIT for every statement whatever its cost, and every plan logged, in the gateway's sessions
    # (authenticator's); the pooled connections open again after the restart below.
    project.sql(
        "alter role authenticator set session_preload_libraries = 'auto_explain';"
        "alter role authenticator set auto_explain.log_min_duration = 0;"
        "alter role authenticator set jit_above_cost = 0")
    assert project.sql("show jit") == "on"
    log = pathlib.Path(project.status["cluster_dir"]) / "postgres.log"
    run_snm("local", "stop", "--dir", project.data_dir, timeout=60)
    log.write_text("")
    result = run_snm("local", "start", "--dir", project.data_dir, "--port", str(project.port),
                     "--json", timeout=180)
    assert result.returncode == 0, result.stderr
    answer = httpx.get(project.rest_url + "/dog_profile?select=id&limit=1",
                       headers=project.headers(project.service_role_key), timeout=60)
    assert answer.status_code == 200, answer.text
    # A reload too: the same query again, on a connection of the pool.
    project.sql("notify pgrst, 'reload schema'")
    deadline = time.monotonic() + 60
    while True:
        plans = _plans(log.read_text(errors="replace"))
        schema = [jit for query, jit in plans if query.startswith("WITH role_settings")]
        if len(schema) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert len(schema) >= 2, f"the schema-cache query was logged {len(schema)} times"
    assert not any(schema), "the schema-cache query was compiled by LLVM (JIT on)"
    read = [jit for query, jit in plans if "dog_profile" in query and "role_settings" not in query]
    assert read and all(read), "the request's read was not compiled: JIT is not at work here"
