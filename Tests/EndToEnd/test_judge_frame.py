"""The judges' frame (scripts/judge_common.py) fails a suite that did not run as a suite does:
none of its cases collected, or its pytest stopped before the end. Both printed "in scope: 0
passed, 0 failed" (or the count of the cases before the stop) and exited 0, a judge that could
not fail when the suite it reads did not run."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SNM

# judge_common.judge() over a suite of the test's: tests/<file> holding <text>.
JUDGE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import judge_common
judge_common.judge_venv = lambda name: Path(sys.prefix)
def run(snm, venv, work, projects):
    suite = work / "suite"
    (suite / "tests").mkdir(parents=True)
    (suite / "tests" / sys.argv[2]).write_text(sys.argv[3])
    return judge_common.run_suite(venv, suite, {}, ["-p", "no:cacheprovider"])
sys.exit(judge_common.judge("frame", run, lambda name: None))
"""


@pytest.mark.parametrize("file, text, said", [
    ("test_nothing.py", "# no case here\n",
     ["BROKEN: the suite's pytest exited 5", "BROKEN: the suite ran no case"]),
    ("test_stopped.py", "def test_a():\n    pass\n\n\ndef test_b():\n    raise KeyboardInterrupt\n"
                        "\n\ndef test_c():\n    assert False\n",
     ["BROKEN: the suite's pytest exited 2"]),
], ids=["no case collected", "stopped half way"])
def test_a_suite_that_did_not_run_fails_the_judge(tmp_path, file, text, said):
    env = dict(os.environ, SNM_JUDGE_SUPABASE_PY=str(tmp_path), SNM_BIN=SNM)
    ran = subprocess.run([sys.executable, "-c", JUDGE, str(ROOT / "scripts"), file, text],
                         env=env, capture_output=True, text=True, timeout=300)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 1, output
    for line in said:
        assert line in output, output
    assert "judge frame: in scope: " in output and "; the suite is broken (" in output, output
