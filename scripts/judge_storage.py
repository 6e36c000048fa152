"""scripts/judge storage: the official storage3 client's own test suite against `snm local`.

The suite (supabase-py's src/storage/tests) was written for the Supabase CLI's local stack
(src/storage/infra/supabase: `supabase start` with Storage only), at the URL and with the anon key
its tests/tests.env names. This harness starts one local project shaped like it (the infra's
migrations: policies that let anyone read and write storage.buckets and storage.objects; the
CLI's 50MiB file size limit, snm's default) and runs the suite unchanged, told the project's URL
and anon key through the suite's own SUPABASE_TEST_URL and SUPABASE_TEST_KEY (tests.env does not
override what the environment sets): the gateway takes only the project's own API keys, as
Supabase's does, and the CLI's demo key is not this project's.

Cases that cannot apply are counted apart by name (SET_APART says why). The counts are printed;
the exit code is 1 when anything else fails.
"""

import sys
from pathlib import Path

import judge_common

SET_APART: dict[str, str] = {  # a test's whole name -> why it cannot apply to snm local
}


def set_apart(name: str) -> str | None:
    return SET_APART.get(name.rsplit("::", 1)[-1].split("[", 1)[0])


def run(snm: str, venv: Path, work: Path, projects: list[dict]) -> dict:
    suite = judge_common.copy_suite(judge_common.checkout(), "storage", work)
    migrations = suite / "infra" / "supabase" / "migrations"
    projects.append(judge_common.start_project(
        snm, "storage", work / "project", None, ["--migrations", str(migrations)]))
    env = {"PYTHONPATH": str(suite / "src"),
           "SUPABASE_TEST_URL": f"http://127.0.0.1:{projects[0]['port']}/storage/v1/",
           "SUPABASE_TEST_KEY": projects[0]["anon_key"]}
    return judge_common.run_suite(venv, suite, env, sys.argv[1:])


if __name__ == "__main__":
    sys.exit(judge_common.judge("storage", run, set_apart))
