"""scripts/bench's issue-41 table and README's tables: each path of issue 41 with the figure of the
run that counts it, its peer measured in the same run, the target and met or missed, printed at
the end of a run and from an earlier run's results.json (`--from`); the rates with the load and the
hypervisor's steal beside them. These read fixed results, so they cost no bench run."""
import importlib.util
import json
import subprocess
import sys
import types

import pytest

from conftest import ROOT

BENCH = ROOT / "scripts" / "bench.py"
SECTIONS = {"5": "5 big results", "9": "9 instructions", "12": "12 client instr."}


def bench_module():
    spec = importlib.util.spec_from_file_location("bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(section, figure, snm, peer, unit="instructions", target=None, limit=None, met=None,
        **extra):
    return {"section": section, "figure": figure, "snm": snm, "peer_name": "the peer",
            "peer": peer, "unit": unit, "better": "lower", "ratio": snm / peer if peer else None,
            "target": target, "limit": limit, "spread": None, "met": met, "note": None,
            "samples": {}, "load": 3.5, "steal": None, **extra}


def every_issue_row(bench, skip=()):
    """A row for each of issue 41's figures, in the section that counts it: the first missed,
    the others met."""
    rows = []
    for index, (_, number, figure) in enumerate(bench.ISSUE_41):
        if number in skip:
            continue
        section = "9 gateway memory" if "peak RSS" in figure else SECTIONS[number]
        unit = "B" if number == "5" or section == "9 gateway memory" else "instructions"
        rows.append(row(section, figure, 300_000 + index, 100_000, unit, target=2.5,
                        met=index != 0))
    return rows


def from_results(tmp_path, rows, *flags):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"started": "2026-12-05T10:30:00Z", "seconds": 1800,
                                "machine": {"cpus": 2, "load_before": [4.0, 3, 2],
                                            "load_after": [6.5, 5, 4]},
                                "runs": 5, "snm_version": "snm 1.0", "rows": rows}))
    return subprocess.run([sys.executable, str(BENCH), "--from", str(path), *flags],
                          capture_output=True, text=True, timeout=60)


def test_a_run_that_counted_every_figure_prints_issue_41s_table_whole(tmp_path):
    bench = bench_module()
    done = from_results(tmp_path, every_issue_row(bench))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("issue 41 (scripts/bench run of 2026-12-05T10:30:00Z")
    for index, (path, _, _) in enumerate(bench.ISSUE_41):
        line = next(line for line in lines if line.startswith(path + " "))
        assert line.endswith("missed" if index == 0 else "met"), line
        assert "the peer" in line and "<= 2.5x" in line
    assert lines[-1] == f"{len(bench.ISSUE_41)} of {len(bench.ISSUE_41)} paths counted, " \
                        f"{len(bench.ISSUE_41) - 1} targets met"


def test_a_path_whose_section_did_not_run_is_named_as_not_counted(tmp_path):
    # CI's gate runs sections 9 and 12: the client's memory rows are section 5's.
    bench = bench_module()
    done = from_results(tmp_path, every_issue_row(bench, skip=("5",)))
    assert done.returncode == 0, done.stderr
    csv = next(line for line in done.stdout.splitlines()
               if line.startswith("memory: 1,000,000 rows as csv to a pipe"))
    assert csv.endswith("not counted (section 5 did not count '1,000,000 rows as csv: peak "
                        "memory')")
    assert done.stdout.splitlines()[-1] == (f"{len(bench.ISSUE_41) - 3} of "
                                            f"{len(bench.ISSUE_41)} paths counted, "
                                            f"{len(bench.ISSUE_41) - 4} targets met")


def test_the_table_has_every_row_of_the_issue():
    # The issue's eight paths (the client's rows once a format, start-up once a command) and its
    # two memory targets, each found by the figure the bench adds: section 12's figures and the
    # budgeted totals of section 9 are the gate's names, so a renamed figure fails here too.
    bench = bench_module()
    named = {(section, figure) for _, section, figure in bench.ISSUE_41}
    for figure in bench.CLIENT_FIGURES:
        assert ("12", figure) in named
    budgets = bench.read_budgets(ROOT / "scripts" / "bench-budgets.txt")
    totals = [figure for figure in budgets if figure.endswith(": gateway + Postgres")]
    assert len(totals) == 5
    for figure in totals:
        assert ("9", figure) in named
    assert ("9", "primary-key select: gateway") in named
    assert ("9", "primary-key select, signed in, owner = auth.uid(): gateway") in named
    # The signed-in read's second peer: what Postgres does for PostgREST's own statements.
    for share in ("gateway + Postgres", "Postgres"):
        assert ("9", f"{bench.SIGNED_IN_READ}: {share}, vs PostgREST's floor") in named
    for fmt in ("csv", "json", "ndjson"):
        assert ("5", f"{bench.MILLION:,} rows as {fmt}: peak memory") in named
    assert ("9", f"{bench.MEMORY_ROWS:,}-row streamed read: gateway peak RSS") in named
    assert len(named) == len(bench.ISSUE_41) == 25


def test_readme_tables_put_load_and_steal_beside_rates_not_instructions(tmp_path):
    bench = bench_module()
    rates = [row("4 gateway", "wrk -c 1: primary-key select", 5_000, 10_000, "/s", target=0.5,
                 met=True, load=7.3, steal="steal 3% (0-9%)", better="higher"),
             row("1 start-up", "snm --version", 0.004, 0.005, "s", target=1.5, met=True,
                 steal_since_last=0.12)]
    done = from_results(tmp_path, every_issue_row(bench) + rates, "--markdown")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("`scripts/bench` run of 2026-12-05T10:30:00Z (30 minutes, 5 runs a "
                           "figure; snm 1.0; 2 CPUs, load average 4.0 at the start and 6.5 at "
                           "the end)")
    tables = text.split("\n\n")
    issue, timed, counted = tables[1], tables[2], tables[3]
    assert issue.splitlines()[0] == "| issue 41: path | snm | peer (same run) | ratio | target |"
    assert "| gateway + Postgres, primary-key read | 300k instr. | the peer: 100k instr. | " \
           "3.00x | ≤ 2.5x (missed) |" in issue
    assert "| 4 gateway: wrk -c 1: primary-key select | 5,000/s | the peer: 10,000/s | 0.50x | - " \
           "| ≥ 0.5x (met) | load 7.3, steal 3% (0-9%) |" in timed
    assert "| 1 start-up: snm --version | 4.0 ms | the peer: 5.0 ms | 0.80x | - | ≤ 1.5x (met) " \
           "| load 3.5, steal 12% |" in timed
    assert counted.splitlines()[0] == ("| instructions (callgrind) | snm | peer (same run) | "
                                       "ratio | target |")
    assert "load" not in counted


def test_a_figure_gets_the_steal_of_the_interval_it_was_measured_in(monkeypatch):
    bench = bench_module()
    ticks = iter([(1_000, 0),     # the report starts
                  (1_200, 20),    # a section starts: the section before's steal is not its own
                  (2_200, 120),   # its first figure: 100 of 1,000 ticks stolen
                  (2_210, 121),   # a figure measured with it (10 ticks later) gets the same
                  (2_210, 121),   # the next section starts
                  (2_610, 321)])  # its figure: 200 of 400
    monkeypatch.setattr(bench, "cpu_times", lambda: next(ticks))
    report = bench.Report(types.SimpleNamespace(runs=5, quick=False, only="1"))
    report.section_started()
    report.add("1 start-up", "a", 1.0, "p", 1.0, "s", "lower")
    report.add("1 start-up", "b", 1.0, "p", 1.0, "s", "lower")
    report.section_started()
    report.add("2 language", "c", 1.0, "p", 1.0, "s", "lower")
    shares = [row["steal_since_last"] for row in report.rows]
    assert shares == [0.1, 0.1, 0.5]
    assert bench.conditions(report.rows[0]).endswith("steal 10%")


def test_the_results_are_written_after_each_section(tmp_path, monkeypatch):
    # A full run takes the better part of an hour on the shared machine: one cut short keeps the
    # sections it finished, and says it did not finish.
    bench = bench_module()

    class NoProject:
        def start(self):
            pass

        seed = pin = stop = start

    out = tmp_path / "results.json"
    seen = []

    def first(project, report, args):
        report.add("1 start-up", "snm --version", 0.004, "psql --version", 0.005, "s", "lower",
                   1.5)

    def second(project, report, args):
        seen.append(json.loads(out.read_text()))
        raise RuntimeError("cut short")

    monkeypatch.setattr(bench, "Project", NoProject)
    monkeypatch.setattr(bench, "SNM", "true")
    monkeypatch.setattr(bench, "WORK", tmp_path)
    # This process keeps to the e2e run's folder: the bench's own is not entered here.
    monkeypatch.setattr(bench, "RUN", types.SimpleNamespace(
        enter=lambda: None, finish=lambda status, say: status))
    monkeypatch.setitem(bench.SECTIONS, "1", first)
    monkeypatch.setitem(bench.SECTIONS, "2", second)
    monkeypatch.setattr(sys, "argv", ["bench", "--only", "1,2", "--out", str(out), "--no-pin"])
    with pytest.raises(RuntimeError, match="cut short"):
        bench.main()
    document = json.loads(out.read_text())
    assert seen == [document]
    assert document["finished"] is False and document["sections_done"] == ["1"]
    assert [row["figure"] for row in document["rows"]] == ["snm --version"]
    done = subprocess.run([sys.executable, str(BENCH), "--from", str(out)], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.startswith(f"issue 41 (scripts/bench run of {document['started']}; not "
                                  "finished: sections 1 of 1, 2 done;")


def columns_end(header, names):
    """Where each of `names` ends in `header` (the columns are right-aligned to their titles)."""
    return [header.index(name) + len(name) for name in names]


def test_the_printed_tables_keep_their_columns_for_long_figures_and_peers():
    """Section 12's https rows (a 60-character figure, a 40-character peer) and the instruction
    targets ("<= 90,000 instr.") pushed their values right of the header's columns, in the table
    printed as a run goes and in issue 41's; the figures and peers themselves are as before."""
    bench = bench_module()
    peer = "postgrest-py's process (httpx, HTTP/1.1)"
    rows = [row("12 client instr.", figure, 523_456, 3_030_123, target=0.2, met=True)
            for figure in bench.CLIENT_FIGURES]
    rows.append(row("9 instructions", "primary-key select: gateway", 88_711, 105_000,
                    limit=90_000, met=True))
    for each in rows:
        each["peer_name"] = peer
        each["steal_since_last"] = 0.0
    snm_end, peer_end, ratio_end, target_end = columns_end(
        bench.Report.header(None), ("snm", "peer value", "ratio", "target"))
    for each in rows:
        text = bench.format_row(each)
        values = text.splitlines()[-1]
        assert each["figure"] in text
        assert values[:snm_end].endswith(" " + bench.human(each["snm"], "instructions")), text
        assert values[:peer_end].endswith(" " + bench.human(each["peer"], "instructions")), text
        assert values[:ratio_end].endswith(" " + bench.ratio_text(each)), text
        assert values[:target_end].endswith(" " + bench.target_text(each)), text
    lines = bench.issue_41_text({"started": "2026-12-06T04:22:51Z",
                                 "issue41": bench.issue_41(rows)}).splitlines()
    snm_end, peer_end, ratio_end, target_end = columns_end(
        lines[1], ("snm", "peer value", "ratio", "target"))
    counted = [line for line in lines[2:-1] if peer in line]
    assert len(counted) == len(bench.CLIENT_FIGURES) + 1
    for line in counted:
        assert line[:peer_end].endswith((" 3,030k instr.", " 105k instr.")), line
        assert line[:ratio_end].endswith("x"), line
        assert line[:target_end].endswith((" <= 0.2x", " <= 90,000 instr.")), line
        assert line[:snm_end].endswith(" instr."), line
