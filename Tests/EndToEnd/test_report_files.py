"""The report files `snm test --report KIND=PATH` and `snm report merge` write: a path that cannot
be written says why in the system's words, exit 2. Both said Foundation's instead: "The operation
could not be completed. (NSCocoaErrorDomain error 512.)" for a folder, "The file doesn't exist."
for /proc. Both now write as snm's other files are written (beside the place, renamed into it)."""

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

