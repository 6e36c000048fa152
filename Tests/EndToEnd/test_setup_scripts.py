"""The first hour's set-up (issue 34): scripts/install says each step, its estimate and its time;
scripts/run rebuilds a binary older than the sources (after `git pull`) and says why.

scripts/run is tried in a copy of the repository's layout whose scripts/install is a stand-in
that "builds" a one-line snm, so no test here builds anything; scripts/install itself is run
with SNM_SKIP_BUILD=1 (its apt and Python steps find everything installed)."""
import os
import re
import shutil
import subprocess
import time

from conftest import ROOT

FAKE_INSTALL = """#!/bin/sh
echo "fake install ran"
mkdir -p .build/release
printf '#!/bin/sh\\necho "snm ran with: $*"\\n' > .build/release/snm
chmod +x .build/release/snm
"""


def test_install_says_each_step_and_how_long_it_took():
    done = subprocess.run([str(ROOT / "scripts" / "install")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "SNM_SKIP_BUILD": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("install: 1/3 apt packages: "), lines
    assert lines[1].startswith("install: 2/3 python test tooling: "), lines
    assert lines[-1].startswith("install: done in "), lines


def layout(tmp_path):
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "Sources").mkdir()
    shutil.copy(ROOT / "scripts" / "run", repo / "scripts" / "run")
    (repo / "scripts" / "install").write_text(FAKE_INSTALL)
    os.chmod(repo / "scripts" / "install", 0o755)
    (repo / "Package.swift").write_text("// package\n")
    (repo / "Sources" / "main.swift").write_text("print(1)\n")
    return repo


def run(repo, *args):
    return subprocess.run([str(repo / "scripts" / "run"), *args], cwd=repo, capture_output=True,
                          text=True, timeout=60)


def age(path, seconds_ago):
    moment = time.time() - seconds_ago
    os.utime(path, (moment, moment))


def test_run_builds_a_missing_binary_then_runs_it(tmp_path):
    repo = layout(tmp_path)
    first = run(repo, "-c", "tables")
    assert first.returncode == 0, first.stderr
    assert "no snm built yet" in first.stderr and "fake install ran" in first.stderr
    assert first.stdout == "snm ran with: -c tables\n"


def test_run_keeps_a_binary_newer_than_every_source(tmp_path):
    repo = layout(tmp_path)
    run(repo)
    for path in [repo / "Package.swift", repo / "Sources" / "main.swift",
                 repo / "scripts" / "install"]:
        age(path, 3600)
    again = run(repo, "--version")
    assert (again.returncode, again.stdout, again.stderr) == (0, "snm ran with: --version\n", "")


def test_run_rebuilds_a_binary_older_than_a_source_and_says_which(tmp_path):
    repo = layout(tmp_path)
    run(repo)
    binary = repo / ".build" / "release" / "snm"
    for path in [repo / "Package.swift", repo / "scripts" / "install"]:
        age(path, 3600)
    age(binary, 60)  # a `git pull` after the build wrote main.swift
    stale = run(repo, "--version")
    assert stale.returncode == 0, stale.stderr
    assert stale.stderr == (
        f"run: {binary} is older than Sources/main.swift (changed since it was built): "
        "rebuilding\nfake install ran\n")
    assert stale.stdout == "snm ran with: --version\n"


FAKE_SWIFT = """#!/bin/sh
# A stand-in for `swift build`: two modules, the second one "compiling" (a busy loop) for 6 s.
case "$*" in
  *--show-bin-path*) echo "$PWD/.build/release"; exit 0 ;;
esac
echo "[1/3] Compiling SNMWire ByteWord.swift"
echo "[2/3] Compiling SNMShell Terminal.swift"
timeout 6 sh -c 'while :; do :; done'
mkdir -p .build/release
printf '#!/bin/sh\\n' > .build/release/snm
chmod +x .build/release/snm
echo "Build of product 'snm' complete! (6.0s)"
"""


def test_install_says_what_the_build_compiles_and_that_it_moves(tmp_path):
    """The build's step counter stood still for minutes while one large module compiled: each
    progress line now names the module and the CPU time its compiler used so far. The estimate
    says what it depends on (measured 7 min 24 s idle, 10 min 42 s under load; it said "about
    6 min")."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "install", repo / "scripts" / "install")
    shutil.copy(ROOT / "scripts" / "requirements-test.txt", repo / "scripts")
    (repo / "scripts" / "check-link-packages").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(repo / "scripts" / "check-link-packages", 0o755)
    (repo / ".build" / "venv").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "requirements-test.txt",
                repo / ".build" / "venv" / ".snm-requirements")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "swift").write_text(FAKE_SWIFT)
    os.chmod(fake / "swift", 0o755)
    done = subprocess.run(
        [str(repo / "scripts" / "install")], cwd=repo, capture_output=True, text=True,
        timeout=120, env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}",
                          "SNM_INSTALL_TICK": "1", "SNM_SKIP_BUILD": "0"})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    step = next(line for line in lines if line.startswith("install: 3/3 swift build"))
    assert "7 min on 2 idle cores, 11 min or more when other work shares them" in step, step
    moving = [line for line in lines if line.startswith("install:   building ")]
    assert moving, lines
    assert all(re.fullmatch(r"install:   building \[2/3\] Compiling SNMShell: compilers at "
                            r"[0-9]+ s of CPU \([0-9]+ s\)", line) for line in moving), moving
