"""Secrets in snm's memory once used: a password typed at the prompt, a session's tokens after
`logout`. Freed memory keeps what was written in it until something else is: a core file (off), a
debugger of the same account, or a later bug that prints memory never written would show them.
These read the whole of a waiting snm's writable memory (/proc/PID/mem, as root) and count."""
import json
import os
import uuid

import pexpect
import pytest

from conftest import SNM, run_snm
from hardening import process_memory

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="reading another process's memory needs root")


class SignedInShell:
    """snm's prompt at a terminal of its own (pexpect's), on the session project, with an account
    made by another snm first; `login` types the password at the password prompt."""

    def __init__(self, project, tmp_path):
        self.email = f"mem-{uuid.uuid4().hex[:8]}@example.com"
        self.password = "Pw-" + uuid.uuid4().hex
        self.state = tmp_path / "state"
        self.env = {**os.environ, "SUPABASE_URL": project.url,
                    "SUPABASE_ANON_KEY": project.anon_key, "XDG_STATE_HOME": str(self.state),
                    "XDG_CACHE_HOME": str(tmp_path / "cache"),
                    "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1",
                    "TERM": "dumb"}
        made = run_snm("-c", f"signup email '{self.email}' password $env.MEM_PW\nlogout",
                       env={**self.env, "MEM_PW": self.password})
        assert made.returncode == 0, made.stderr
        self.child = pexpect.spawn(SNM, env=self.env, timeout=30, dimensions=(24, 200))
        self.child.expect_exact(b"snm anon@local> ")

    def login(self):
        self.child.sendline(f"login email '{self.email}'")
        self.child.expect_exact(f"password for {self.email}: ".encode())
        self.child.sendline(self.password)
        self.child.expect_exact(f"signed in as {self.email}".encode())
        self.child.expect_exact(f"snm {self.email.split('@')[0]}@local> ".encode())
        [stored] = (self.state / "snm").glob("session-*.json")
        return json.loads(stored.read_text())["session"]

    def logout(self):
        self.child.sendline("logout")
        self.child.expect_exact(b"signed out")
        self.child.expect_exact(b"snm anon@local> ")

    def places(self, **secrets):
        """How many times each secret is in snm's memory now."""
        memory = process_memory(self.child.pid)
        assert len(memory) > 1 << 20, len(memory)
        return {name: memory.count(secret.encode()) for name, secret in secrets.items()}

    def close(self):
        self.child.sendline("exit")
        self.child.expect(pexpect.EOF)
        self.child.close()


@pytest.fixture
def shell(project, tmp_path):
    opened = SignedInShell(project, tmp_path)
    yield opened
    opened.close()


def test_after_logout_no_buffer_of_snm_s_holds_the_password_or_the_tokens(shell):
    """After `login` (the password typed at the prompt) and `logout`, the memory snm read and
    wrote them in is zeroed: the request's bytes (`Authorization: Bearer ...`, the password's
    JSON body), the body's `Data`, the sign-in's answer as read and as a body, the session file's
    bytes as read and as written. On main's binary each was left in freed memory: the password's
    body 1 to 3 times, the logout's `Bearer` line once, the token answer twice. What is left (counted
    below, not asserted) are `String`s and Foundation's JSONEncoder/JSONDecoder copies, which snm
    cannot reach; the password typed is kept on purpose (`SecretValues` masks it in failures)."""
    session = shell.login()
    token = session["access_token"]
    refresh = session["refresh_token"]
    shell.logout()
    memory = process_memory(shell.child.pid)
    assert len(memory) > 1 << 20, len(memory)
    owned = {
        # The sign-in's JSON body: serialized, as Data, in the request's bytes.
        "password body": memory.count(b'"password":"%s"' % shell.password.encode()),
        # The logout's request line for the token.
        "bearer line": memory.count(b"Bearer %s\r\n" % token.encode()),
        # The token answer, in GoTrue's order (the session file's is sorted: token_type follows).
        "token answer": memory.count(b'"refresh_token":"%s","user"' % refresh.encode()),
    }
    left = {
        "password": memory.count(shell.password.encode()),
        "signature": memory.count(token.rsplit(".", 1)[1].encode()),
        "refresh": memory.count(refresh.encode()),
    }
    print("snm's own buffers:", owned, "all places:", left)
    assert owned == {"password body": 0, "bearer line": 0, "token answer": 0}, (owned, left)
