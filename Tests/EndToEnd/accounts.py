"""Throwaway accounts and groups on this machine for tests that run as root (CI does): made with
useradd/groupadd, removed at the end, whatever the test did. Debian's useradd makes each account
its user-private group (USERGROUPS_ENAB yes), as Fedora's does.
"""
import contextlib
import grp
import os
import pwd
import shutil
import subprocess
import uuid

needs_root = "making accounts and groups needs root"


@contextlib.contextmanager
def throwaway_user(*flags):
    """A new account `snmt<hex>` (its home /tmp/<name>-home, umask 002 folders made by the
    test), with `flags` for useradd (`-G group`); yields its pwd entry."""
    name = "snmt" + uuid.uuid4().hex[:6]
    home = f"/tmp/{name}-home"
    subprocess.run(["/usr/sbin/useradd", "--create-home", "--home-dir", home, "--shell", "/bin/sh",
                    *flags, name], check=True, capture_output=True)
    try:
        yield pwd.getpwnam(name)
    finally:
        subprocess.run(["/usr/sbin/userdel", "--remove", name], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def shared_group():
    """A new group `snmg<hex>` with a throwaway account in it: a folder of its may be written by
    someone other than the one who made it. Yields its grp entry."""
    name = "snmg" + uuid.uuid4().hex[:6]
    subprocess.run(["/usr/sbin/groupadd", name], check=True, capture_output=True)
    try:
        with throwaway_user("-G", name):
            yield grp.getgrnam(name)
    finally:
        subprocess.run(["/usr/sbin/groupdel", name], capture_output=True)


def copy_binary(binary, account):
    """`binary` copied where `account` may run it (the work tree may be closed to it); its path.
    Removed with the account's home."""
    folder = f"{account.pw_dir}/bin"
    os.makedirs(folder, exist_ok=True)
    shutil.copy(binary, f"{folder}/snm")
    os.chmod(folder, 0o755)
    os.chmod(f"{folder}/snm", 0o755)
    return f"{folder}/snm"


def run_as(account, command, env, timeout=120, by_id=False):
    """`command` run as `account` (runuser: its uid, primary group and groups) with only `env`
    (and PATH), from /tmp. `by_id`: by its uid and primary group alone (setpriv, no other
    groups), for an account whose entry runuser cannot read (one past its buffer)."""
    switch = (["/usr/bin/setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}",
               "--clear-groups", "--"] if by_id else
              ["/usr/sbin/runuser", "-u", account.pw_name, "--"])
    return subprocess.run(
        [*switch, "env", "-i",
         f"PATH={os.environ.get('PATH', '/usr/bin:/bin')}",
         *(f"{k}={v}" for k, v in env.items()), *command],
        capture_output=True, text=True, timeout=timeout, cwd="/tmp")
