"""Drive the real snm binary in a pseudo-terminal through tmux, and read the screen as a user sees it.

    with TmuxShell([SNM], env=project.env) as shell:
        shell.wait_for_prompt()
        shell.type("from user_info select name")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "rows)" in s)

Each shell runs on its own tmux server (-L), so tests can run side by side. The command is wrapped so
that its exit code stays on screen as `[snm exited N]` after it ends.
"""
import contextlib
import os
import re
import shlex
import subprocess
import time
import uuid

PROMPT = re.compile(r"snm [^\s>]+@[^\s>]+>(?= |$)", re.M)


class TmuxShell:
    def __init__(self, argv, env=None, width=160, height=50, cwd=None):
        self.socket = "snm-test-" + uuid.uuid4().hex[:12]
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        full_env.update(env or {})
        full_env.setdefault("TERM", "xterm-256color")
        exports = " ".join(
            f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        command = (f"env {exports} {shlex.join(argv)}; "
                   f"echo \"[snm exited $?]\"; sleep 600")
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height),
                   "-c", cwd or os.getcwd(), command, env=full_env)

    def _tmux(self, *args, env=None):
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              env=env, check=True).stdout

    def type(self, text):
        """Types text literally (no key names)."""
        self._tmux("send-keys", "-t", "0", "-l", text)

    def press(self, *keys):
        """Presses keys by tmux name: Enter, Tab, C-c, C-d, Up, C-r."""
        self._tmux("send-keys", "-t", "0", *keys)

    def screen(self):
        """Everything shown so far (scrollback and the visible screen), trailing blank lines removed."""
        return self._tmux("capture-pane", "-p", "-S", "-", "-t", "0").rstrip("\n")

    def raw_screen(self):
        """The visible screen with its colour escape codes."""
        return self._tmux("capture-pane", "-p", "-e", "-t", "0").rstrip("\n")

    def wait_for(self, predicate, timeout=15.0, interval=0.02):
        """Polls the screen until predicate(screen) is true; returns the screen or raises.
        Waits at least 30 s whatever the caller asks: a wait only ever ends early on success, so
        a longer one slows a failing test alone, while a short one failed passing tests on a
        loaded machine (CI runs the suite on two busy cores). How fast snm answers is the
        benchmarks' to measure, never a test's."""
        timeout = max(timeout, 30.0)
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if predicate(screen):
                return screen
            time.sleep(interval)
        raise AssertionError(f"timed out after {timeout}s; screen:\n{screen}")

    def wait_for_text(self, text, timeout=15.0):
        return self.wait_for(lambda s: text in s, timeout)

    def prompt_count(self, screen=None):
        return len(PROMPT.findall(screen if screen is not None else self.screen()))

    def last_line(self):
        lines = self.screen().splitlines()
        return lines[-1] if lines else ""

    def wait_for_prompt(self, count=1, timeout=15.0):
        """Waits until at least `count` prompts are on screen and the cursor line is a fresh prompt."""
        return self.wait_for(
            lambda s: self.prompt_count(s) >= count and PROMPT.fullmatch(
                (s.splitlines() or [""])[-1]) is not None, timeout)

    def run(self, statement, timeout=15.0):
        """Types a statement, presses Enter and waits for the next prompt; returns the new output."""
        before = self.prompt_count()
        self.type(statement)
        self.press("Enter")
        screen = self.wait_for_prompt(before + 1, timeout)
        return screen

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@contextlib.contextmanager
def job_control_bash(env, height=20):
    """An interactive bash in tmux's pty with job control on (checked), prompt `bash$ `, and snm
    not yet started: where a child in a process group of its own is stopped at the terminal."""
    with TmuxShell(["bash", "--norc", "--noprofile", "-i"], env={**env, "PS1": "bash$ "},
                   height=height) as shell:
        shell.wait_for_text("bash$")
        shell.type('echo "flags:$-"')
        shell.press("Enter")
        shell.wait_for(lambda s: re.search(r"^flags:\w*m\w*$", s, re.M))
        yield shell
