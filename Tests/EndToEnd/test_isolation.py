"""Every test runs with config, cache and state folders of its own (conftest's `isolated_xdg`):
what one test leaves there (here a schema cache) is not there for the next (issue 43: a schema
cached by earlier runs once gave `snm check` false warnings).

The two tests run in this order, as pytest runs a file's tests.
"""
import os
import pathlib

from conftest import run_snm

SEEN = {}


def names_a_project(project):
    return {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key, "NO_COLOR": "1"}


def test_a_test_that_loads_the_schema_caches_it_in_its_own_folder(project):
    cache = pathlib.Path(os.environ["XDG_CACHE_HOME"])
    result = run_snm("-c", "tables", env=names_a_project(project))
    assert result.returncode == 0, result.stderr
    assert list((cache / "snm" / "schema").glob("*.json")), "the shell cached the schema"
    SEEN["cache"] = cache
    SEEN["folders"] = {name: os.environ[name]
                       for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")}


def test_the_next_test_sees_none_of_it(project, tmp_path):
    assert "cache" in SEEN, "runs after the test that caches"
    for name, folder in SEEN["folders"].items():
        assert os.environ[name] != folder, f"{name} is the previous test's"
    assert not (pathlib.Path(os.environ["XDG_CACHE_HOME"]) / "snm" / "schema").exists()
    script = tmp_path / "names.snm"
    script.write_text("from no_such_table select id\n")
    # With the previous test's cache, this is a warning: 'no_such_table' is not in the schema.
    result = run_snm("check", str(script), env=names_a_project(project))
    assert (result.returncode, result.stdout, result.stderr) == (
        0, "checked 1 file: no errors\n", "")
