"""The run's own folder (run_folder.py, docs/testing.md): a test whose snm escapes the run's
XDG_DATA_HOME and SNM_CLUSTERS_DIR writes where the machine keeps its projects, and the run fails
naming it, even when the test deleted what it wrote again (a project started and destroyed);
scripts/bench and the judges start their projects in folders of their own and leave the machine's
records as they found them.

Each case runs its subject (an inner pytest of this suite's conftest, bench.py, judge_common.py)
against a "machine" of its own: folders of this test's, passed as its XDG_DATA_HOME and
SNM_CLUSTERS_DIR."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT

ESCAPING_TEST = '''
import os
import subprocess

from conftest import SNM, free_port


def test_a_project_started_and_destroyed_where_the_machine_keeps_its_own(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=os.environ["MACHINE_DATA_HOME"],
               SNM_CLUSTERS_DIR=os.environ["MACHINE_CLUSTERS_DIR"])
    folder = str(tmp_path / "escaped")
    started = subprocess.run([SNM, "local", "start", "--dir", folder, "--port", str(free_port())],
                             env=env, capture_output=True, text=True, timeout=300)
    assert started.returncode == 0, started.stderr
    destroyed = subprocess.run([SNM, "local", "destroy", "--dir", folder, "--yes"], env=env,
                               capture_output=True, text=True, timeout=300)
    assert destroyed.returncode == 0, destroyed.stderr
'''


def fake_machine(tmp_path, with_records=True):
    """A machine's data home and clusters folder (in the run's clusters folder, which the
    `postgres` account can enter), the data home holding one record when `with_records`: the
    folder holding both, and the environment naming them."""
    machine = pathlib.Path(os.environ["SNM_CLUSTERS_DIR"]) / f"machine-{tmp_path.name}"
    data_home, clusters = machine / "data", machine / "clusters"
    data_home.mkdir(parents=True, mode=0o700)
    clusters.mkdir(mode=0o755)
    if with_records:
        (data_home / "snm" / "projects").mkdir(parents=True, mode=0o700)
        (data_home / "snm" / "projects" / "0123456789abcdef.json").write_text(
            '{"project_dir": "/somewhere/else"}\n')
    env = dict(os.environ, XDG_DATA_HOME=str(data_home), SNM_CLUSTERS_DIR=str(clusters))
    return machine, env


def holds(folder):
    """Every path under `folder` with its inode and modification time."""
    return sorted((str(path), path.lstat().st_ino, path.lstat().st_mtime_ns)
                  for path in pathlib.Path(folder).rglob("*"))


@pytest.mark.parametrize("machine_has_records", [True, False],
                         ids=["the machine has records", "a fresh machine"])
def test_a_run_that_writes_the_machines_records_and_deletes_them_fails(tmp_path, machine_has_records):
    """The machine's snm folder present (covered by a stand-in: the run's writes land there, the
    machine's folder is untouched; watched when not root) or absent (the run makes it); its
    clusters folder present."""
    machine, env = fake_machine(tmp_path, with_records=machine_has_records)
    data_home = pathlib.Path(env["XDG_DATA_HOME"])
    before = holds(machine)
    (tmp_path / "test_escaping.py").write_text(ESCAPING_TEST)
    env.update(PYTHONPATH=str(ROOT / "Tests" / "EndToEnd"), SNM_TEST_WORKDIR=str(tmp_path / "runs"),
               MACHINE_DATA_HOME=env["XDG_DATA_HOME"], MACHINE_CLUSTERS_DIR=env["SNM_CLUSTERS_DIR"])
    inner = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio",
         "-p", "conftest", "test_escaping.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    output = inner.stdout + inner.stderr
    assert inner.returncode == 1, output
    assert "1 passed" in output, output  # the test itself did what it meant to
    assert "the machine's projects written" in output, output
    if machine_has_records and os.geteuid() == 0:
        assert f"{data_home / 'snm'} (what the run wrote there is in " in output, output
        assert "nothing now (written and deleted again)" in output, output
        assert holds(machine) == before
    elif machine_has_records:  # no mount namespace: the folder is watched
        assert f"{data_home / 'snm'} changed (not root: no mount namespace, " in output, output
    else:
        assert f"{data_home / 'snm'}, made by the run" in output, output
    assert "the run's folder is kept: " in output, output


# scripts/bench's main() with one section of the test's (it notes where the project is) in place
# of the real ones, and no seeding; the results to the test's folder.
BENCH = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
import bench
seen = {}
def section(project, report, args):
    seen.update(dir=str(project.status["data_dir"]), home=os.environ["XDG_DATA_HOME"])
bench.SECTIONS["run-folder"] = section
bench.Project.seed = lambda self: None
sys.argv = ["scripts/bench", "--only", "run-folder", "--no-pin", "--out", sys.argv[2]]
status = bench.main()
print(json.dumps({"status": status, "run": str(bench.WORK), **seen}))
"""

# A judge of the test's: judge_common.judge() starting one project, its suite passing.
JUDGE = """
import json, os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import judge_common
judge_common.judge_venv = lambda name: Path(sys.prefix)
seen = {}
def run(snm, venv, work, projects):
    projects.append(judge_common.start_project(snm, "run-folder", work / "project", None, []))
    seen.update(dir=projects[0]["dir"], home=os.environ["XDG_DATA_HOME"], run=str(work.parent))
    return {"passed": ["a case"], "failed": [], "skipped": []}
status = judge_common.judge("run-folder", run, lambda name: None)
print(json.dumps({"status": status, **seen}))
"""


@pytest.mark.parametrize("script", ["bench", "judge"])
def test_the_bench_and_the_judges_start_their_projects_in_a_folder_of_their_own(
        tmp_path, script):
    """The project's data dir and snm's data home are in .build/bench/run-<pid> or
    .build/judge/run-<pid>, deleted when the run passes; the machine's records are as they were.
    Both started their projects under the machine's XDG_DATA_HOME (and the judge, in a 0700
    temporary folder, its clusters in the machine's clusters folder) and left records there."""
    machine, env = fake_machine(tmp_path)
    before = holds(machine)
    env["SNM_JUDGE_SUPABASE_PY"] = str(tmp_path)
    source = BENCH if script == "bench" else JUDGE
    ran = subprocess.run([sys.executable, "-c", source, str(ROOT / "scripts"),
                          str(tmp_path / "results.json")],
                         env=env, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    seen = json.loads(ran.stdout.splitlines()[-1])
    assert seen["status"] == 0, ran.stdout + ran.stderr
    assert holds(machine) == before, seen
    runs = ROOT / ".build" / script
    assert pathlib.Path(seen["run"]).parent == runs and seen["run"].startswith(str(runs / "run-"))
    assert seen["dir"].startswith(seen["run"] + "/"), seen
    assert seen["home"] == seen["run"] + "/data", seen
    assert not pathlib.Path(seen["run"]).exists()


def test_a_process_keeps_to_one_run_folder(tmp_path):
    """This pytest keeps to the e2e run's folder: a second run folder entered in it (as
    test_bench_table did by calling scripts/bench's main() here) is refused, the environment and
    the machine's records left as they were. It moved XDG_DATA_HOME and SNM_CLUSTERS_DIR to
    .build/bench/run-<this pid> for every test after it, whose projects the bench's end stopped."""
    from run_folder import RunFolder
    names = ("XDG_DATA_HOME", "SNM_CLUSTERS_DIR", "SNM_E2E_RUN")
    before = {name: os.environ.get(name) for name in names}
    with pytest.raises(RuntimeError, match="already keeps to the run folder"):
        RunFolder(tmp_path / "runs", "/bin/true").enter()
    assert {name: os.environ.get(name) for name in names} == before
    assert not (tmp_path / "runs").exists()
