"""Golden files for the script tests: normalise what changes from run to run, compare, re-record.

RECORD_SNAPSHOTS=1 rewrites the files under Tests/EndToEnd/golden/ instead of comparing, and fails.
"""
import difflib
import os
import pathlib
import re

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden" / "scripts"
RECORD = os.environ.get("RECORD_SNAPSHOTS") == "1"

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normalise(text):
    """Durations, UUIDs, ports and e-mail run numbers become fixed placeholders."""
    text = re.sub(r'time="[0-9.]+"', 'time="T"', text)
    text = re.sub(r'"seconds": [0-9.]+', '"seconds": 0', text)
    text = re.sub(r"in [0-9]+\.[0-9]+ s\b", "in T s", text)
    text = _UUID.sub("<uuid>", text)
    text = re.sub(r"127\.0\.0\.1:[0-9]+", "127.0.0.1:PORT", text)
    text = re.sub(r"--port [0-9]+", "--port PORT", text)
    # The last requests and answers a failing file's report keeps (times, tokens' expiry, row
    # dates) are checked by test_scripts_ci.py, not here.
    text = re.sub(r"--- the last requests and answers ---\n.*?(?=</system-out>)",
                  "--- the last requests and answers ---\n(trace)\n", text, flags=re.S)
    text = re.sub(r"^  trace:\n(?:    - .*\n)+", "  trace: (trace)\n", text, flags=re.M)
    text = re.sub(r'"trace": \[\n.*?\n\s*\]', '"trace": "(trace)"', text, flags=re.S)
    return text


def expect_golden(name, actual):
    """Compares `actual` (normalised) with golden/scripts/NAME."""
    check_golden(GOLDEN / name, normalise(actual))


def check_golden(path, actual):
    """Compares `actual` with the golden file at `path`, showing a diff when they differ.

    RECORD_SNAPSHOTS=1 writes the file instead and fails the test, as the Swift snapshot helper
    does: a recording run proves nothing, so it must never pass. Run again without it to compare.
    """
    path = pathlib.Path(path)
    if RECORD:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        raise AssertionError(f"recorded {path.name}: RECORD_SNAPSHOTS=1 never passes, run again "
                             "without it to compare")
    assert path.exists(), f"no golden file {path}: run with RECORD_SNAPSHOTS=1"
    expected = path.read_text()
    if actual != expected:
        shown = f"golden/{path.relative_to(GOLDEN.parent)}" \
            if path.is_relative_to(GOLDEN.parent) else str(path)
        diff = "".join(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), shown, "actual"))
        raise AssertionError(f"differs from {shown}:\n{diff}")


def transcript(result):
    """Exit code, standard output and standard error of a run, as one golden text."""
    return (f"exit: {result.returncode}\n--- stdout\n{result.stdout}"
            f"--- stderr\n{result.stderr}")
