"""The command line itself: version and usage."""
from conftest import run_snm


def test_version_prints_name_and_semver(snm_bin):
    result = run_snm("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("snm ")
    assert result.stdout.strip().split(" ")[1].count(".") == 2
