"""What test_auth_judge.py and test_storage_judge.py share: `scripts/judge NAME` run against the
built snm, its in-scope counts read and held to a floor."""
import os
import re
import subprocess

import pytest

from conftest import ROOT, SNM


def assert_judge_passes(name, floor, timeout):
    """Every in-scope case of `scripts/judge NAME` passes, at least `floor` of them; skipped (CI
    has no GitHub) when SNM_JUDGE_SUPABASE_PY names no supabase-py checkout."""
    if not os.environ.get("SNM_JUDGE_SUPABASE_PY"):
        pytest.skip("SNM_JUDGE_SUPABASE_PY names no supabase-py checkout (CI has no GitHub)")
    done = subprocess.run([str(ROOT / "scripts" / "judge"), name], cwd=ROOT,
                          env={**os.environ, "SNM_BIN": str(SNM)}, capture_output=True,
                          text=True, timeout=timeout)
    print(done.stdout[-4000:])
    counts = re.search(rf"judge {name}: in scope: (\d+) passed, (\d+) failed", done.stdout)
    assert counts, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.returncode == 0 and counts.group(2) == "0", done.stdout[-3000:]
    assert int(counts.group(1)) >= floor
