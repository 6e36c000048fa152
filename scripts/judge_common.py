"""What the judges (scripts/judge auth, scripts/judge storage) share: supabase-py's suite of one
client copied out of a checkout, the virtualenv it runs in, local projects started and stopped,
the suite run under pytest, and the counts printed with the cases set apart by name. A judge runs
in a folder of its own, .build/judge/run-<pid> (Tests/EndToEnd/run_folder.py: the suite's copy,
the projects, snm's data home and clusters folder; the machine's records of projects covered),
deleted when it passes, kept when it fails."""

import json
import os
import shutil
import socket
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "EndToEnd"))
from run_folder import RunFolder  # noqa: E402 (the e2e suite's, beside it)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def snm_binary() -> str:
    if os.environ.get("SNM_BIN"):
        return os.environ["SNM_BIN"]
    bin_path = subprocess.run(
        ["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
        capture_output=True, text=True).stdout.strip()
    return bin_path + "/snm"


def copy_suite(source: Path, client: str, into: Path) -> Path:
    """src/CLIENT of the checkout (a work tree, or a bare git dir's HEAD), copied to into/CLIENT."""
    if (source / "src" / client / "tests").is_dir():
        shutil.copytree(source / "src" / client, into / client)
    else:
        archive = subprocess.run(
            ["git", "--git-dir", str(source), "archive", "HEAD", f"src/{client}"], check=True,
            capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
        shutil.move(str(into / "src" / client), str(into / client))
    return into / client


def judge_venv(judge: str) -> Path:
    """.build/judge-venv with the suites' own test dependencies (their pyprojects' `tests` groups)."""
    venv = ROOT / ".build" / "judge-venv"
    requirements = ROOT / "scripts" / "requirements-judge.txt"
    stamp = venv / ".snm-requirements"
    if not stamp.exists() or stamp.read_text() != requirements.read_text():
        print(f"judge {judge}: python packages for the suite in", venv, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "-r",
             str(requirements)], check=True)
        stamp.write_text(requirements.read_text())
    return venv


def supported_flags(snm: str, judge: str, label: str, wanted: list[str]) -> list[str]:
    """`wanted` less the flags this snm does not know (an older build, for a before/after count)."""
    known = subprocess.run([snm, "local", "--help"], capture_output=True, text=True).stdout
    flags = []
    for index, flag in enumerate(wanted):
        if not flag.startswith("--"):
            continue
        takes_value = index + 1 < len(wanted) and not wanted[index + 1].startswith("--")
        if flag in known:
            flags += [flag] + ([wanted[index + 1]] if takes_value else [])
        else:
            print(f"judge {judge}: this snm has no {flag}; {label} runs without it",
                  file=sys.stderr)
    return flags


def start_project(snm: str, judge: str, data_dir: Path, secret: str | None,
                  flags: list[str]) -> dict:
    """A local project in data_dir on a free port, its JWT secret `secret` (None: its own)."""
    data_dir.mkdir()
    if secret is not None:
        # The project's JWT secret is this file (made on first start when absent): a suite that
        # signs tokens of its own does so with its servers' secret.
        (data_dir / "jwt-secret").write_text(secret)
        (data_dir / "jwt-secret").chmod(0o600)
    for _attempt in range(5):
        port = free_port()
        started = subprocess.run(
            [snm, "local", "start", "--dir", str(data_dir), "--port", str(port), "--json"]
            + flags, capture_output=True, text=True)
        if started.returncode == 0:
            break
    if started.returncode != 0:
        raise SystemExit(f"judge {judge}: snm local start failed: {started.stderr.strip()}")
    status = json.loads(started.stdout)
    return {"port": port, "anon_key": status["anon_key"], "dir": str(data_dir)}


def stop_projects(snm: str, projects: list[dict]) -> None:
    for project in projects:
        subprocess.run([snm, "local", "stop", "--dir", project["dir"]], capture_output=True)


def run_suite(venv: Path, suite: Path, env: dict, args: list[str]) -> dict:
    """pytest over suite/tests (cwd: the suite, as its own Makefile runs it); the cases by outcome,
    and under "broken" why the suite did not run as a suite does (pytest's exit code other than
    0 and 1: interrupted, an internal or usage error, no case collected; or no case at all)."""
    junit = suite.parent / "junit.xml"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **env}
    ran = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"--junitxml={junit}"] + args + ["tests"], cwd=suite, env=env)
    results = {"passed": [], "failed": [], "skipped": [], "broken": []}
    if ran.returncode not in (0, 1):
        results["broken"].append(f"the suite's pytest exited {ran.returncode}")
    if not junit.exists():
        results["broken"].append("the suite's pytest wrote no report")
        return results
    for case in ElementTree.parse(junit).iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            results["failed"].append(name)
        elif case.find("skipped") is not None:
            results["skipped"].append(name)
        else:
            results["passed"].append(name)
    if not any(results[outcome] for outcome in ("passed", "failed", "skipped")):
        results["broken"].append("the suite ran no case")
    return results


def report(judge: str, results: dict, set_apart: Callable[[str], str | None]) -> int:
    """Prints the counts; failures that `set_apart` names a reason for are counted apart.
    The exit code: 1 when anything else failed, or the suite did not run as a suite does."""
    total = sum(len(results[outcome]) for outcome in ("passed", "failed", "skipped"))
    excused = [(name, set_apart(name)) for name in results["failed"] if set_apart(name)]
    failing = [name for name in results["failed"] if not set_apart(name)]
    print()
    print(f"judge {judge}: {len(results['passed'])} passed, {len(results['failed'])} failed, "
          f"{len(results['skipped'])} skipped of {total}")
    for name, what in excused:
        print(f"  {what}: {name}")
    for name in failing:
        print(f"  FAILED: {name}")
    broken = results.get("broken", [])
    for why in broken:
        print(f"  BROKEN: {why}")
    print(f"judge {judge}: in scope: {len(results['passed'])} passed, {len(failing)} failed "
          f"(set apart: {len(excused)})" + (f"; the suite is broken ({len(broken)})" if broken
                                            else ""))
    return 1 if failing or broken else 0


def judge(name: str, run: Callable[[str, Path, Path, list[dict]], dict],
          set_apart: Callable[[str], str | None]) -> int:
    """The frame of a judge: run(snm, venv, work, projects) copies its suite into `work` (in the
    run's folder), starts its projects (appended to `projects`, stopped afterwards whatever
    happens) and returns run_suite's results; the counts are then reported, and the run fails
    too when it wrote where the machine keeps its projects."""
    source = checkout()
    if not source.exists():
        print(f"judge {name}: skipped: SNM_JUDGE_SUPABASE_PY={source} does not exist")
        return 0
    snm = snm_binary()
    venv = judge_venv(name)
    run_folder = RunFolder(ROOT / ".build" / "judge", snm)
    watched = run_folder.enter()
    if watched:
        print(f"judge {name}: {watched}", file=sys.stderr)
    work = run_folder.path / "work"
    work.mkdir()
    projects: list[dict] = []
    results = None
    status = 1
    try:
        results = run(snm, venv, work, projects)
    finally:
        stop_projects(snm, projects)
        if results is not None:
            status = report(name, results, set_apart)
        status = run_folder.finish(
            status, lambda line: print(f"judge {name}: {line}", file=sys.stderr))
    return status


def checkout() -> Path:
    """The supabase-py checkout the judge reads (SNM_JUDGE_SUPABASE_PY)."""
    return Path(os.environ["SNM_JUDGE_SUPABASE_PY"])
