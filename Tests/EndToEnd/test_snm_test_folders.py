"""`snm test` gives each file a folder of its own for what it writes, `$env.SNM_TEST_TMPDIR`
(0700, under $TMPDIR), and removes it with all in it when the file ends, as bats gives
BATS_TEST_TMPDIR. The smoke scripts wrote their CSV and JSON in /tmp, named after the run's
user, and every run left them there (1,437 files in /tmp on the shared machine)."""
import re

from conftest import ROOT, run_snm
from test_scripts import run_in_root, smoke_env


def test_each_file_writes_in_a_folder_of_its_own_removed_when_it_ends(project, tmp_path):
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1",
           "TMPDIR": str(tmpdir), "XDG_STATE_HOME": str(tmp_path / "state")}
    for name in ("a", "b"):
        (tmp_path / f"{name}.snm").write_text(
            f"set output '{tmp_path}/where-{name}.txt'\n"
            "echo '${env.SNM_TEST_TMPDIR}'\n"
            "set output off\n"
            "from dog_profile select name where id eq 1 > '${env.SNM_TEST_TMPDIR}/dogs.csv'\n"
            "from dog_profile select name where id eq 1 > '${env.SNM_TEST_TMPDIR}/dogs.json'\n")
    result = run_snm("test", "--jobs", "2", str(tmp_path / "a.snm"), str(tmp_path / "b.snm"),
                     env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    folders = [(tmp_path / f"where-{name}.txt").read_text().strip() for name in ("a", "b")]
    # A folder each, under $TMPDIR, and nothing left there once the run ends.
    assert folders[0] != folders[1], folders
    assert all(folder.startswith(f"{tmpdir}/") for folder in folders), folders
    assert list(tmpdir.iterdir()) == [], list(tmpdir.iterdir())

    # `snm FILE` gives none: the variable is the runner's, and a script using it alone says so.
    result = run_snm(str(tmp_path / "a.snm"), env=env)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "SNM_TEST_TMPDIR" in result.stderr, result.stderr


def test_the_smoke_scripts_write_nothing_in_tmp(project, tmp_path):
    """The files 10-files.snm writes and reads back go in its folder, not /tmp, and it passes;
    its `set output` log too, which took its name as written (`${...}` and all) and so had to
    stay in /tmp, as `/tmp/snm-smoke-${me}.log`."""
    for path in (ROOT / "scripts" / "smoke").rglob("*.snm"):
        text = path.read_text()
        assert not re.search(r"(>|\bcsv|\bfile|\boutput|\\o)\s+'/tmp/", text), (
            f"{path} writes in /tmp")
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    env = {**smoke_env(project, tmp_path), "TMPDIR": str(tmpdir)}
    result = run_in_root("test", "scripts/smoke/10-files.snm", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(tmpdir.iterdir()) == [], list(tmpdir.iterdir())
