"""A folder of its own for each run that starts local projects: an end-to-end run (conftest.py),
scripts/bench and the judges (scripts/judge_common.py). docs/testing.md says what each gets.

    run = RunFolder(ROOT / ".build" / "bench", SNM)
    run.enter()          # RUNS/run-<pid>: its data home, clusters folder; the machine's masked
    ...                  # every process started from here on uses them
    written = run.machine.written()    # what the run wrote where the machine keeps its projects
    run.leave(passed=not written)      # deleted when the run passed, kept (and said) when not

The folder, RUNS/run-<pid>, holds the run's XDG_DATA_HOME (snm's registry of projects and the
default project), its SNM_CLUSTERS_DIR (the clusters snm as root keeps outside folders the
`postgres` account cannot enter) and whatever the run puts there; SNM_E2E_RUN names it in the
environment of everything the run starts. The machine's own records of projects (snm's folder in
the data home the run was given, and its clusters folder) are each covered, for this process and
all it starts, by an empty folder of the run's (a bind mount in a mount namespace of the run's:
MachineRecords), so a test that escapes the run's variables writes there, never to the machine,
and whatever it wrote, even deleted again, is seen at the run's end.
"""
import ctypes
import json
import os
import pathlib
import shutil
import subprocess
import tempfile


def postgres_can_enter(path):
    """Whether the `postgres` account (which runs the clusters when snm runs as root) can enter
    `path`; always true for another user, whose clusters live in their project folders."""
    if os.geteuid() != 0:
        return True
    return subprocess.run(["/usr/sbin/runuser", "-u", "postgres", "--", "test", "-x", str(path)],
                          capture_output=True).returncode == 0


# The run folder this process keeps to, once one has entered: a process keeps to one. (A test that
# called scripts/bench's main() inside the e2e run's own pytest moved the run's XDG_DATA_HOME and
# SNM_CLUSTERS_DIR to .build/bench/run-<pytest's pid> for every test after it; the bench's end
# then stopped the projects started there and deleted their clusters under the tests using them.)
ENTERED = []


def another_account_owns_a_folder_above(path):
    """As root: whether a folder above `path` is another account's (`sudo scripts/test` in a
    user's clone), where snm refuses an SNM_CLUSTERS_DIR: that account could put a folder of its
    own in its place."""
    if os.geteuid() != 0:
        return False
    folder = pathlib.Path(os.path.realpath(path))
    return any(above.exists() and above.stat().st_uid != 0 for above in folder.parents)


class RunFolder:
    """RUNS/run-<this process's pid>, and what snm is told of it."""

    def __init__(self, runs, snm):
        self.runs = pathlib.Path(runs)
        self.path = self.runs / f"run-{os.getpid()}"
        self.snm = snm
        self.machine = None

    def environment(self, path=None):
        """What the run in folder `path` (this one by default) gives every process it starts."""
        run = pathlib.Path(path or self.path)
        clusters = run / "clusters"
        return {"XDG_DATA_HOME": str(run / "data"),
                "SNM_CLUSTERS_DIR": os.path.realpath(clusters) if clusters.is_symlink()
                else str(clusters),
                "SNM_E2E_RUN": str(run)}

    def enter(self):
        """Deletes the folders of earlier runs whose process is gone, makes this one, covers the
        machine's records of projects (as os.environ names them now) and points snm's data home and
        clusters folder at the run's for everything started from here on. Returns the line to say
        when the machine's records could not be covered (and are watched instead), else None.
        Refused (RuntimeError) in a process that already entered one: run a second in a process
        of its own."""
        if ENTERED:
            raise RuntimeError(f"this process already keeps to the run folder {ENTERED[0]}; "
                               f"{self.path} would move its projects' data home and clusters "
                               "under the projects it runs: start it in a process of its own")
        ENTERED.append(self.path)
        self.remove_stale()
        self.make()
        self.machine = MachineRecords(os.environ, self.path / "machine")
        os.environ.update(self.environment())
        if self.machine.unmasked:
            return ("the machine's records of projects are watched, not covered: "
                    + self.machine.unmasked)
        return None

    def make(self):
        """The folder, its data folder, and its clusters folder: inside it when the `postgres`
        account can reach it, else (a clone in a folder closed to others, as CI's may be, or in
        another account's, whose clusters folder snm as root refuses) a private-named folder
        under /tmp that the folder's `clusters` links to."""
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / "data").mkdir(mode=0o700, exist_ok=True)
        clusters = self.path / "clusters"
        if postgres_can_enter(self.path) and not another_account_owns_a_folder_above(self.path):
            clusters.mkdir(mode=0o755, exist_ok=True)
        elif not clusters.is_symlink():
            outside = tempfile.mkdtemp(prefix=f"snm-{self.runs.name}-{os.getpid()}-clusters-",
                                       dir="/tmp")
            os.chmod(outside, 0o755)
            clusters.symlink_to(outside)

    def remove(self, path=None):
        """Stops the projects the run in `path` (this one by default) still has running (`snm
        local list` of its own registry and clusters) and deletes its folder, and the clusters
        folder it kept under /tmp."""
        run = pathlib.Path(path or self.path)
        env = dict(os.environ)
        env.update(self.environment(run))
        if os.access(self.snm, os.X_OK):
            try:
                listed = subprocess.run([self.snm, "local", "list", "--json"],
                                        capture_output=True, text=True, env=env, timeout=120)
                projects = json.loads(listed.stdout) if listed.returncode == 0 else []
            except (subprocess.TimeoutExpired, ValueError):
                projects = []
            for entry in projects:
                if entry.get("running") and entry.get("project_dir"):
                    subprocess.run([self.snm, "local", "stop", "--dir", entry["project_dir"]],
                                   capture_output=True, env=env, timeout=120)
        clusters = run / "clusters"
        if clusters.is_symlink():
            shutil.rmtree(os.path.realpath(clusters), ignore_errors=True)
        shutil.rmtree(run, ignore_errors=True)

    def remove_stale(self):
        """Deletes the folders of earlier runs whose process is gone (killed, or it failed and kept
        its folder to be looked at)."""
        if not self.runs.is_dir():
            return
        for run in self.runs.glob("run-*"):
            pid = run.name[len("run-"):]
            if run == self.path or not pid.isdigit() or os.path.exists(f"/proc/{pid}"):
                continue
            self.remove(run)

    def finish(self, status, say):
        """The end of a script's run (scripts/bench, a judge) that exits with `status`: 1 when the
        run wrote where the machine keeps its projects, said with `say`; the folder deleted when
        the code is 0, else kept and said. Returns the code."""
        written = self.machine.written() if self.machine else []
        if written:
            say("the run wrote where the machine keeps its local projects (its snm must use the "
                "run's XDG_DATA_HOME and SNM_CLUSTERS_DIR):\n" + "\n".join(written))
            status = 1
        kept = self.leave(passed=status == 0)
        if kept:
            say(kept)
        return status

    def leave(self, passed):
        """Deletes the folder when the run passed; else keeps it and returns the line saying
        where (the next run deletes it)."""
        if passed:
            self.remove()
            return None
        return f"the run's folder is kept: {self.path}"


# mount(2) and unshare(2) flags (linux/mount.h, linux/sched.h).
CLONE_NEWNS = 0x00020000
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000


class MachineRecords:
    """Where the machine keeps its local projects, as `environ` names them (snm's folder in
    XDG_DATA_HOME, else ~/.local/share: the registry and the default project; SNM_CLUSTERS_DIR,
    else /var/lib/snm/clusters), each covered from now on, for this process and all it starts, by
    an empty folder under `stand_ins` with the same owner and mode (`mount --bind` in a mount
    namespace of this process's own, its mounts kept from the machine's). What the run writes
    there lands in the stand-in, and `written()` names it at the end, a record written and deleted
    again too (the stand-in's own change time moves); the machine's folders stay as they were.
    A folder the machine does not have is not covered: `written()` names it if the run made it.
    Where no mount namespace can be had (not root), the folders are watched instead: `written()`
    names any that changed, though then someone else at the machine may have changed it."""

    def __init__(self, environ, stand_ins):
        data_home = environ.get("XDG_DATA_HOME", "")
        if not data_home.startswith("/"):
            data_home = os.path.expanduser("~/.local/share")
        clusters = environ.get("SNM_CLUSTERS_DIR", "")
        if not clusters.startswith("/"):  # snm refuses a relative one and uses none
            clusters = "/var/lib/snm/clusters"
        self.folders = [pathlib.Path(data_home) / "snm", pathlib.Path(clusters)]
        self.stand_ins = {}
        self.stamps = {str(folder): self.stamp(folder) for folder in self.folders}
        present = [folder for folder in self.folders if self.stamps[str(folder)]]
        self.unmasked = self.mask(present, pathlib.Path(stand_ins)) if present else None

    @staticmethod
    def stamp(path):
        """What moves when an entry of `path` is made, deleted or renamed (or `path` itself is
        replaced): its inode and change time; None when it does not exist."""
        try:
            info = os.lstat(path)
        except OSError:
            return None
        return (info.st_ino, info.st_ctime_ns, info.st_mtime_ns)

    def mask(self, folders, stand_ins):
        """Covers each of `folders` with an empty stand-in; returns None, or why it could not
        (then nothing is covered and the folders are watched)."""
        if os.geteuid() != 0:
            return "not root: no mount namespace"
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_void_p]

        def failed(call):
            return f"{call}: {os.strerror(ctypes.get_errno())}"

        if libc.unshare(CLONE_NEWNS) != 0:
            return failed("unshare(CLONE_NEWNS)")
        # This namespace's mounts stop propagating to the machine's (`unshare -m` does the same).
        if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return failed("mount --make-rprivate /")
        stand_ins.mkdir(parents=True, exist_ok=True)
        for index, folder in enumerate(folders):
            target = os.path.realpath(folder)
            info = os.stat(target)
            stand_in = stand_ins / f"{index}-{folder.name}"
            stand_in.mkdir()
            os.chown(stand_in, info.st_uid, info.st_gid)
            os.chmod(stand_in, info.st_mode & 0o7777)
            if libc.mount(os.fsencode(stand_in), os.fsencode(target), None, MS_BIND, None) != 0:
                return failed(f"mount --bind {stand_in} {target}")
            self.stand_ins[str(folder)] = (stand_in, self.stamp(stand_in))
        return None

    def written(self):
        """Lines naming what the run wrote to the machine's records of projects: a stand-in not
        as it was made, a folder the machine did not have and has now, or (watched) a folder
        that changed."""
        lines = []
        for folder in self.folders:
            key = str(folder)
            if key in self.stand_ins:
                stand_in, made = self.stand_ins[key]
                if self.stamp(stand_in) != made or any(stand_in.iterdir()):
                    lines.append(f"  {folder} (what the run wrote there is in {stand_in}): "
                                 + self.holds(stand_in))
            elif self.stamps[key] is None:
                if self.stamp(folder) is not None:
                    lines.append(f"  {folder}, made by the run: " + self.holds(folder))
            elif self.stamp(folder) != self.stamps[key]:
                lines.append(f"  {folder} changed ({self.unmasked}, so it was watched, not "
                             "covered: someone else at the machine may have changed it): "
                             + self.holds(folder))
        return lines

    @staticmethod
    def holds(folder):
        """What `folder` holds now: its files' paths under it, with the project each record
        names (`project_dir`)."""
        found = []
        for path in sorted(pathlib.Path(folder).rglob("*")):
            if not path.is_file() or path.is_symlink():
                continue
            name = str(path.relative_to(folder))
            if path.suffix == ".json":
                try:
                    named = json.loads(path.read_text()).get("project_dir")
                except (OSError, ValueError, AttributeError):
                    named = None
                if named:
                    name += f" (the project in {named})"
            found.append(name)
        if not found:
            return "nothing now (written and deleted again)"
        shown = found[:20] + ([f"... {len(found) - 20} more"] if len(found) > 20 else [])
        return ", ".join(shown)
