"""A statement that reads a named file as data (`insert file`, `insert csv`, `storage upload`)
given a FIFO, a device, a socket or a directory: it says what the file is, at once. `insert file`
said "permission denied" for each (the wrong reason: nothing was denied), and `storage upload` of
a FIFO nobody writes waited in open(2) forever, deaf to Ctrl-C.

Nothing listens at the URL: the file is read before anything is sent, so a refusal never needs a
project (the 60 s limit is far above the few milliseconds a refusal takes).
"""
import os
import socket

import pytest

from conftest import run_snm

KINDS = {"fifo": "a FIFO (a named pipe)", "/dev/zero": "a character device",
         "/dev/null": "a character device", "sock": "a socket", "folder": "a directory"}
STATEMENTS = {"insert file": ("from todos insert file '{}'", 2),
              "insert csv": ("from todos insert csv '{}'", 2),
              "storage upload": ("storage upload '{}' to avatars/x.png", 1)}


@pytest.fixture
def odd_files(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "sock"))
    yield tmp_path
    listener.close()


@pytest.mark.parametrize("statement", list(STATEMENTS))
@pytest.mark.parametrize("name", list(KINDS))
def test_a_data_file_that_is_not_a_regular_file_is_named_for_what_it_is(
        odd_files, home, statement, name):
    text, code = STATEMENTS[statement]
    result = run_snm("--url", "http://127.0.0.1:9", "--key", "the-anon-key", "-c",
                     text.format(name), env=home, cwd=odd_files, timeout=60)
    assert result.returncode == code, (result.returncode, result.stderr)
    assert f"cannot read '{name}': it is {KINDS[name]}, not a regular file" in result.stderr, \
        result.stderr
    assert "permission denied" not in result.stderr


@pytest.mark.parametrize("make, kind", [(os.mkfifo, "a FIFO (a named pipe)"),
                                        (os.mkdir, "a directory")], ids=["fifo", "folder"])
def test_a_profile_file_that_is_not_a_regular_file_is_named_for_what_it_is(tmp_path, make, kind):
    """`--profile dev` with a FIFO or a folder where config.json goes said the file does not
    exist."""
    folder = tmp_path / "config" / "snm"
    folder.mkdir(parents=True, mode=0o700)
    make(folder / "config.json")
    result = run_snm("--profile", "dev", "-c", "echo 'x'", timeout=60,
                     env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert result.returncode == 2, result.stderr
    assert f"snm: no profile 'dev': cannot read {folder}/config.json: it is {kind}, not a " \
           "regular file" in result.stderr, result.stderr
