"""Shared fixtures for the end-to-end tests: the built snm binary and a running local project.

scripts/test sets SNM_BIN (the release binary) and SNM_TEST_WORKDIR (scratch space under .build).
Every test here runs the real binary; a test that needs a server uses the `project` fixture, which
starts one local project (real Postgres + snm's gateways) for the whole session and stops it after.
"""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SNM = os.environ.get("SNM_BIN") or str(ROOT / ".build" / "release" / "snm")
WORKDIR = pathlib.Path(os.environ.get("SNM_TEST_WORKDIR") or ROOT / ".build" / "e2e")
LONG = os.environ.get("SNM_TEST_LONG") == "1"


def run_snm(*args, input=None, env=None, timeout=60, check=False):
    """Runs the snm binary; returns the CompletedProcess with text stdout/stderr."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [SNM, *args], input=input, capture_output=True, text=True, env=full_env,
        timeout=timeout, check=check)


@pytest.fixture(scope="session")
def snm_bin():
    assert os.access(SNM, os.X_OK), f"snm binary not built at {SNM}"
    return SNM


@pytest.fixture(scope="session")
def workdir():
    WORKDIR.mkdir(parents=True, exist_ok=True)
    return WORKDIR
