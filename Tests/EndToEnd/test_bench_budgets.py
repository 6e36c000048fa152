"""scripts/bench --only 9 --check, CI's instruction gate: each path's callgrind count against the
budget kept in scripts/bench-budgets.txt, failing more than 5% over. These run the check on fixed
counts (an earlier run's results.json, `--from`), so they cost no valgrind run."""
import json
import subprocess
import sys

from conftest import ROOT

BENCH = ROOT / "scripts" / "bench.py"
PK = "primary-key select: gateway + Postgres"
GATEWAY = "primary-key select: gateway"


def results(folder, counts, peer=105_000):
    rows = [{"section": "9 instructions", "figure": figure, "snm": count,
             "peer_name": "Postgres, pgbench -S", "peer": peer} for figure, count in counts.items()]
    path = folder / "results.json"
    path.write_text(json.dumps({"rows": rows}))
    return str(path)


def budgets(folder, lines):
    path = folder / "budgets.txt"
    path.write_text("# figure | budget | peer | peer's count | set\n" + "".join(
        f"{figure} | {budget} | Postgres, pgbench -S | 105000 | 2026-12-04\n"
        for figure, budget in lines.items()))
    return str(path)


def check(results_path, budgets_path):
    return subprocess.run([sys.executable, str(BENCH), "--check", "--from", results_path,
                           "--budgets", budgets_path],
                          capture_output=True, text=True, timeout=60)


def test_a_path_ten_percent_over_its_budget_fails(tmp_path):
    # Today's count with a budget 10% below it: the gate must stop the change.
    done = check(results(tmp_path, {PK: 387_000, GATEWAY: 182_000}),
                 budgets(tmp_path, {PK: 351_818, GATEWAY: 182_000}))
    assert done.returncode == 1, done.stdout + done.stderr
    assert (f"{PK}: 387,000 instructions, 10.0% over its budget of 351,818 "
            "(more than 5% fails)") in done.stderr
    assert GATEWAY + ":" not in done.stderr
    # The table is printed either way, the failing row marked.
    assert any(line.startswith(PK) and line.endswith("OVER") for line in done.stdout.splitlines())


def test_within_five_percent_passes_and_prints_the_table(tmp_path):
    done = check(results(tmp_path, {PK: 406_000, GATEWAY: 170_000}),
                 budgets(tmp_path, {PK: 387_000, GATEWAY: 182_000}))
    assert done.returncode == 0, done.stderr
    assert "all 2 budgets met" in done.stdout
    pk_row = next(line for line in done.stdout.splitlines() if line.startswith(PK))
    assert pk_row.split()[-5:] == ["+4.9%", "105,000", "105,000", "2026-12-04", "ok"]


def test_a_budgeted_path_not_counted_fails(tmp_path):
    # valgrind missing, or a path dropped from the bench: no count is no pass.
    done = check(results(tmp_path, {GATEWAY: 182_000}),
                 budgets(tmp_path, {PK: 387_000, GATEWAY: 182_000}))
    assert done.returncode == 1
    assert f"{PK}: not counted (budget 387,000 instructions)" in done.stderr


def test_a_malformed_budgets_file_is_a_usage_error(tmp_path):
    path = tmp_path / "budgets.txt"
    path.write_text(f"{PK} | about 400k | Postgres, pgbench -S | 105000 | 2026-12-04\n")
    done = check(results(tmp_path, {PK: 387_000}), str(path))
    assert done.returncode == 2
    assert "budgets.txt:1: expected 'figure | budget | peer | peer's count | date'" in done.stderr


def test_the_repository_budgets_every_counted_path():
    text = (ROOT / "scripts" / "bench-budgets.txt").read_text()
    figures = {line.split("|")[0].strip() for line in text.splitlines()
               if line.strip() and not line.startswith("#")}
    for path in ("primary-key select", "10-row filtered select",
                 "single-row insert, return=representation"):
        assert f"{path}: gateway + Postgres" in figures
        assert f"{path}: gateway" in figures
    assert "raising one needs a line in CHANGELOG" in text
