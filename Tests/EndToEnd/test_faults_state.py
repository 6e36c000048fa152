"""The state directory (sessions, history) full or read-only: snm warns, goes on with the
statements, and the session file it had stays intact. The directory is a tiny tmpfs mounted in a
private mount namespace (`unshare -m`, as root), so nothing outside the test sees it."""
import os
import pathlib
import subprocess
import textwrap

import pytest

from conftest import SNM
from hardening import namespaces_work
from tmux_shell import TmuxShell


pytestmark = pytest.mark.skipif(not namespaces_work(),
                                reason="needs root and mount namespaces (unshare -m)")


def env_for(project, tmp_path):
    return {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "NO_COLOR": "1", "SNM": SNM, "PAGER": "cat"}


SESSION_SCRIPT = textwrap.dedent("""\
    set -u
    state=$XDG_STATE_HOME out=$1
    mount -t tmpfs -o size=256k,mode=0700 tmpfs "$state"
    run() {  # NAME STATEMENTS: runs snm, keeps its output, exit code and the session file
      "$SNM" -c "$2" > "$out/$1.out" 2> "$out/$1.err"; echo $? > "$out/$1.rc"
      cat "$state"/snm/session-*.json > "$out/$1.session" 2>/dev/null
      ls -A "$state/snm" > "$out/$1.ls"
    }
    run first "login email 'alice@example.com' password 'password123'"
    dd if=/dev/zero of="$state/fill" bs=4k 2>/dev/null
    run full "login email 'bob@example.com' password 'password123'; session show; from user_info select name order by name"
    rm "$state/fill"
    mount -o remount,ro "$state"
    run readonly "logout; login email 'carol@example.com' password 'password123'; session show"
    run later "session show"
    """)


def test_a_full_or_read_only_state_dir_keeps_the_old_session(project, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "state").mkdir()
    script = tmp_path / "session.sh"
    script.write_text(SESSION_SCRIPT)
    done = subprocess.run(["unshare", "-m", "bash", str(script), str(out)],
                          env=env_for(project, tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr

    def read(name):
        return (out / name).read_text()

    assert read("first.rc").strip() == "0", read("first.err")
    original = read("first.session")
    assert '"email":"alice@example.com"' in original.replace(" ", "")

    assert read("full.rc").strip() == "0", read("full.err")
    assert "snm: warning:" in read("full.err") and "no space left on device" in read("full.err")
    assert read("full.err").count("snm: warning:") == 1
    assert "bob@example.com" in read("full.out"), "the new session works in this process"
    assert "Alice" in read("full.out"), "statements after the warning ran"
    assert read("full.session") == original, "the old session file changed"
    assert not any(name.endswith(".tmp") for name in read("full.ls").split()), read("full.ls")

    assert read("readonly.rc").strip() == "0", read("readonly.err")
    assert "read-only file system" in read("readonly.err")
    assert "carol@example.com" in read("readonly.out")
    assert read("readonly.session") == original

    assert read("later.rc").strip() == "0", read("later.err")
    assert "alice@example.com" in read("later.out"), "the old session is still usable"


HISTORY_SCRIPT = textwrap.dedent("""\
    set -u
    state=$XDG_STATE_HOME out=$1
    mount -t tmpfs -o size=64k,mode=0700 tmpfs "$state"
    mkdir -m 0700 "$state/snm"
    printf 'from dog_profile select name\\ntables\\n' > "$state/snm/history"
    chmod 0600 "$state/snm/history"
    dd if=/dev/zero of="$state/fill" bs=4k 2>/dev/null
    "$SNM"; code=$?
    cp "$state/snm/history" "$out/history"
    exit $code
    """)


def test_history_on_a_full_disk_warns_once_and_the_shell_goes_on(project, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "state").mkdir()
    script = tmp_path / "history.sh"
    script.write_text(HISTORY_SCRIPT)
    long_text = "x" * 6000  # more than the history file's last page holds
    env = {k: v for k, v in env_for(project, tmp_path).items() if k not in os.environ
           or os.environ[k] != v}
    with TmuxShell(["unshare", "-m", "bash", str(script), str(out)], env=env, width=200) as shell:
        shell.wait_for_prompt()
        shell.type("echo 'short one'")
        shell.press("Enter")
        shell.wait_for_prompt(count=2)
        shell.type(f"echo '{long_text}'")
        shell.press("Enter")
        screen = shell.wait_for_prompt(count=3, timeout=30)
        assert "snm: warning: history not saved:" in screen
        assert "no space left on device" in screen
        shell.type("from dog_profile select name order by id")
        shell.press("Enter")
        screen = shell.wait_for_prompt(count=4)
        assert "Bori" in screen, "the shell goes on after the warning"
        assert screen.count("history not saved") == 1
        shell.press("C-d")
        screen = shell.wait_for_text("[snm exited")
        assert "[snm exited 0]" in screen
    lines = (out / "history").read_text().split("\n")
    assert lines[-1] == "", "the history file ends with a whole line"
    assert lines[:2] == ["from dog_profile select name", "tables"]
    assert all(line in ("echo 'short one'", "from dog_profile select name order by id",
                        f"echo '{long_text}'") for line in lines[2:-1]), lines[2:-1]
