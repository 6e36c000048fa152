"""Files snm writes beside their place and renames into it (rows after `> 'out.csv'`, an answer's
body after `request ... > 'file'`, `snm gen swift --out`), in a folder another user of the
machine may write to (/tmp, a shared build folder). Until this, the stand-in had a name anyone
could guess (`out.csv.snm-partial`, `.T.swift.snm-partial`) and was opened without O_EXCL, so a
symbolic link planted there was written through (the linked file, say ~/.bashrc, emptied and
filled with rows) and a planted file of the other user's became the result, theirs to read and
change; the rows were made 0644. Now each goes through the one writer downloads use: a name no
one can guess, made with O_EXCL, 0600 or the mode of the file it replaces."""
import os
import stat

import pytest

from conftest import run_snm

PLANTED = ["{name}.snm-partial", ".{name}.snm-partial"]


def plant(folder, name, victim):
    """Symbolic links at the stand-in names snm used, to `victim`."""
    for pattern in PLANTED:
        os.symlink(victim, folder / pattern.format(name=name))


def assert_untouched_and_private(folder, name, victim):
    assert victim.read_text() == "precious\n", "a planted link was written through"
    made = folder / name
    info = os.lstat(made)
    assert stat.S_ISREG(info.st_mode), "the result is not a regular file of its own"
    assert stat.S_IMODE(info.st_mode) == 0o600, oct(info.st_mode)
    for pattern in PLANTED:  # the planted links are left alone, never renamed into place
        assert os.readlink(folder / pattern.format(name=name)) == str(victim)
    assert not list(folder.glob(f".{name}.snm-*.part")), "a stand-in was left behind"


@pytest.mark.parametrize("statement", [
    "from dog_profile select id, name order by id > '{out}'",
    "from dog_profile select id, name order by id all > '{out}'",
    "request get '/rest/v1/dog_profile?select=id,name&order=id' > '{out}'",
], ids=["rows", "every page", "a raw answer"])
def test_a_link_planted_beside_the_output_is_not_written_through(project, home, tmp_path,
                                                                  statement):
    shared = tmp_path / "shared"
    shared.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = shared / "out.csv"
    plant(shared, "out.csv", victim)
    result = run_snm("--url", project.url, "--key", project.anon_key, "-c",
                     statement.format(out=out), env=home)
    assert result.returncode == 0, result.stderr
    assert_untouched_and_private(shared, "out.csv", victim)
    assert "Bori" in out.read_text()


def test_a_replaced_file_keeps_its_mode(project, home, tmp_path):
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    result = run_snm("--url", project.url, "--key", project.anon_key, "-c",
                     f"from dog_profile select id > '{out}'", env=home)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    assert out.read_text().startswith("id\n1\n")


def test_gen_swift_does_not_write_through_a_planted_link(project, home, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    shared = tmp_path / "shared"
    shared.mkdir()
    plant(shared, "Schema.swift", victim)
    result = run_snm("gen", "swift", "--url", project.url, "--key",
                     project.status["secret_key"], "--out", str(shared / "Schema.swift"),
                     env=home, timeout=120)
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == "precious\n", "a planted link was written through"
    made = shared / "Schema.swift"
    assert stat.S_ISREG(os.lstat(made).st_mode)
    # A source file gets the mode the umask gives, as an editor's would (not 0600).
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o666 & ~current_umask()
    assert "struct" in made.read_text()


def current_umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
