"""The report files `snm test --report KIND=PATH` and `snm report merge` write: a path that cannot
be written says why in the system's words, exit 2. Both said Foundation's instead: "The operation
could not be completed. (NSCocoaErrorDomain error 512.)" for a folder, "The file doesn't exist."
for /proc. Both now write as snm's other files are written (beside the place, renamed into it)."""

import re

from conftest import run_snm


def unwritable(tmp_path):
    """Report paths that cannot be written, with the reason the system gives."""
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    return [(tmp_path / "a-folder", "Is a directory"),
            (tmp_path / "a-file" / "r.xml", "Not a directory"),
            (tmp_path / "a-file" / "in" / "r.xml", "cannot make the folder "
             f"'{tmp_path / 'a-file' / 'in'}': Not a directory"),
            ("/proc/snm-report.xml", "No such file or directory")]


def snm_test(tmp_path, home, *flags):
    script = tmp_path / "t.snm"
    script.write_text("echo 'hi'\n")
    return run_snm("test", "--url", "http://127.0.0.1:9", "--key", "k", *flags, str(script),
                   env=home, cwd=str(tmp_path))


def test_a_report_that_cannot_be_written_says_why(tmp_path, home):
    for path, reason in unwritable(tmp_path):
        result = snm_test(tmp_path, home, "--report", f"junit={path}")
        assert result.returncode == 2, result.stderr
        assert f"snm: cannot write the junit report '{path}': {reason}\n" in result.stderr, \
            result.stderr
    # Folders that are missing are made, and nothing is left beside the report.
    path = tmp_path / "build" / "reports" / "snm.xml"
    result = snm_test(tmp_path, home, "--report", f"junit={path}")
    assert result.returncode == 0, result.stderr
    assert path.read_text().startswith("<?xml")
    assert [p.name for p in path.parent.iterdir()] == ["snm.xml"]


def test_a_merged_report_that_cannot_be_written_says_why(tmp_path, home):
    shard = tmp_path / "shard.json"
    made = snm_test(tmp_path, home, "--report", f"json={shard}")
    assert made.returncode == 0, made.stderr
    for path, reason in unwritable(tmp_path):
        result = run_snm("report", "merge", str(shard), "--junit", str(path), env=home)
        assert result.returncode == 2, result.stderr
        # A write failure is not a usage error: the one line, no usage lines after it.
        assert result.stderr == (f"snm report: cannot write the junit report '{path}': "
                                 f"{reason}\n"), result.stderr



# Characters a report cannot hold raw: control characters (XML 1.0 allows none but tab and line
# breaks; in a TAP line they drive the terminal of whoever reads it), DEL, C1's NEL and a
# bidirectional override.
HIDDEN = "\x01\x1b[2J\x7f\r\x0b\x85\u202e"


def test_every_report_holds_hidden_characters_of_names_statements_and_output_as_escapes(
        tmp_path, home):
    """File names (of a file that does not parse, one that is not text, one whose `run` names a
    missing file), a statement and what a file printed, each with HIDDEN in them: the JUnit report
    parses as XML, the JSON report as JSON, and the TAP report holds no control character but its
    line feeds, nor the override. TAP's test lines held the names raw (`not ok 1 - a<ESC>[2J...`).
    """
    import json
    from xml.etree import ElementTree
    (tmp_path / f"parse{HIDDEN}.snm").write_text("from\n")
    (tmp_path / f"binary{HIDDEN}.snm").write_bytes(b"\xff\xfe\x00not text")
    (tmp_path / f"runs{HIDDEN}.snm").write_text(f"run 'gone{HIDDEN}.snm'\n")
    (tmp_path / f"prints{HIDDEN}.snm").write_text(f"echo 'out{HIDDEN}put'\nexpect 1 == 2\n")
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("junit", "tap", "json")}
    flags = [word for kind, path in reports.items() for word in ("--report", f"{kind}={path}")]
    names = sorted(path.name for path in tmp_path.glob("*.snm"))
    result = run_snm("test", "--url", "http://127.0.0.1:9", "--key", "k", *flags, *names,
                     env=home, cwd=str(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "0 passed, 4 failed", result.stdout
    suite = ElementTree.parse(reports["junit"]).getroot().find("testsuite")
    assert suite.get("tests") == "4"
    assert "\\u{1b}" in ElementTree.tostring(suite, encoding="unicode")
    files = json.loads(reports["json"].read_text())["files"]
    assert len(files) == 4
    # Every record's location names its file as it was shown, escaped, whatever the failure.
    locations = [failure["location"] for file in files for failure in file["failures"]]
    assert len(locations) == 4 and all("\\u{1B}[2J" in place for place in locations), locations
    tap = reports["tap"].read_bytes().decode()
    hidden = sorted({f"U+{ord(c):04X}" for c in tap
                     if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c == "\u202e"})
    assert hidden == [], f"raw in the TAP report: {hidden}\n{tap!r}"
    assert tap.count("not ok ") == 4 and "\\u{1B}[2J" in tap, tap


# A TAP test line as Perl's TAP::Parser reads it (TAP::Parser::Grammar): the description runs to
# the first `#` no backslash escapes (`\` escapes the byte after it, `\\` a backslash), and a
# `# TODO` or `# SKIP` there is a directive: a failed test with TODO counts as passed.
TAP_TEST_LINE = re.compile(r"^(not ok|ok) (\d+) - ((?:[^\\#]|\\.)*)(?:#\s*(\S+).*)?$")


def test_a_file_name_holding_a_backslash_and_a_hash_is_no_tap_directive(tmp_path, home):
    """A failed file named `t\\# TODO.snm`: its TAP line was `not ok 1 - t\\\\# TODO.snm`, `\\`
    left as it was and `#` made `\\#`, which a TAP reader takes for an escaped backslash and then
    a TODO directive: `prove` counted the failure as a passing to-do (and `# SKIP` as skipped).
    Each backslash is escaped too now: the description is the name, and no directive follows."""
    names = ["t\\# TODO.snm", "u\\\\# SKIP ok.snm", "v\\.snm"]
    for name in names:
        (tmp_path / name).write_text("expect 1 == 2\n")
    tap = tmp_path / "r.tap"
    result = run_snm("test", "--url", "http://127.0.0.1:9", "--key", "k", "--report",
                     f"tap={tap}", *names, env=home, cwd=str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line for line in tap.read_text().splitlines() if line.startswith("not ok ")]
    assert len(lines) == 3, tap.read_text()
    for name, line in zip(names, lines):
        status, _, description, directive = TAP_TEST_LINE.match(line).groups()
        assert status == "not ok" and directive is None, line
        assert re.sub(r"\\(.)", r"\1", description).strip() == name, line
