"""A umask of 002 with user-private groups (Fedora; Debian and Ubuntu make such groups too) makes
every folder a user creates 775: group-writable, by a group no one else is in. snm refused its
state folder under such a parent on every run (`others may write in ~/.local/state (mode 775)`),
so a sign-in never lasted past the run. Such a group is now taken as the user's own, as OpenSSH
takes it; a group anyone else is in (as a member, or as their primary group) is refused as ever.

Real accounts and groups, made by useradd and groupadd (the tests run as root in CI).
"""
import grp
import os
import subprocess

import pytest

from accounts import copy_binary, needs_root, run_as, shared_group, throwaway_user
from conftest import SNM

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason=needs_root)

LOGIN = "login email 'alice@example.com' password 'password123'"


def umask_002_home(account):
    """The account's ~/.local/state, ~/.cache and ~/.config made as a umask of 002 makes them
    (775, the account's and its primary group's): the XDG variables that point there."""
    folders = {}
    for variable, place in (("XDG_STATE_HOME", ".local/state"), ("XDG_CACHE_HOME", ".cache"),
                            ("XDG_CONFIG_HOME", ".config")):
        path = account.pw_dir
        for name in place.split("/"):
            path += "/" + name
            os.makedirs(path, exist_ok=True)
            os.chown(path, account.pw_uid, account.pw_gid)
            os.chmod(path, 0o775)
        folders[variable] = path
    os.chmod(account.pw_dir, 0o775)
    return folders


def env_of(account, project):
    return {"HOME": account.pw_dir, "NO_COLOR": "1", "SUPABASE_URL": project.url,
            "SUPABASE_ANON_KEY": project.anon_key, **umask_002_home(account)}


# A comment (GECOS field) that makes an account's password entry longer than the 16 KiB buffer
# snm read entries into: the account's own entry was then taken as missing (its private group
# refused), and the walk of all accounts stopped there, as if no one else had the group. runuser
# cannot read such an entry either: the account is run by its ids (setpriv).
LONG_ENTRY = ("-c", "x" * 20000)


@pytest.mark.parametrize("entry", ["short", "long"])
def test_a_775_parent_of_the_user_s_private_group_keeps_the_session(project, entry):
    long = entry == "long"
    with throwaway_user(*(LONG_ENTRY if long else ())) as account:
        snm = copy_binary(SNM, account)
        env = env_of(account, project)
        login = run_as(account, [snm, "-c", LOGIN], env, by_id=long)
        assert login.returncode == 0, login.stderr
        assert "refusing" not in login.stderr, login.stderr
        state = f"{env['XDG_STATE_HOME']}/snm"
        assert [name for name in os.listdir(state) if name.endswith(".json")], os.listdir(state)
        shown = run_as(account, [snm, "-c", "session show"], env, by_id=long)
        assert shown.returncode == 0, shown.stderr
        assert "email       alice@example.com" in shown.stdout, shown.stdout + shown.stderr
        assert shown.stderr == "", shown.stderr


@pytest.mark.parametrize("how", ["member", "primary group", "primary group, a long entry"])
def test_a_775_parent_whose_group_someone_else_is_in_is_still_refused(project, how):
    """The account's group, once another account is in it (a member, or its primary group, also
    when that account's entry is a long one), is shared: the 775 folders above snm's are
    refused, naming the first, the home."""
    other_flags = LONG_ENTRY if how.endswith("long entry") else ()
    with throwaway_user() as account, throwaway_user(*other_flags) as other:
        name = grp.getgrgid(account.pw_gid).gr_name
        joined = ["-a", "-G", name] if how == "member" else ["-g", name]
        subprocess.run(["/usr/sbin/usermod", *joined, other.pw_name], check=True,
                       capture_output=True)
        snm = copy_binary(SNM, account)
        env = env_of(account, project)
        login = run_as(account, [snm, "-c", LOGIN], env)
        state = env["XDG_STATE_HOME"]
        assert f"snm: warning: refusing {state}/snm: its group {name}, a group not yours alone, " \
               f"may write in {account.pw_dir} (mode 775), and so put a folder of theirs in its " \
               "place" in login.stderr, login.stderr
        assert not os.path.exists(f"{state}/snm")
        shown = run_as(account, [snm, "-c", "session show"], env)
        assert shown.stdout.startswith("not signed in"), shown.stdout


def test_snm_s_own_folder_775_of_a_shared_group_is_refused_and_of_the_private_one_taken(project):
    with shared_group() as group, throwaway_user() as account:
        snm = copy_binary(SNM, account)
        env = env_of(account, project)
        own = f"{env['XDG_STATE_HOME']}/snm"
        os.mkdir(own)
        os.chown(own, account.pw_uid, group.gr_gid)
        os.chmod(own, 0o775)
        login = run_as(account, [snm, "-c", LOGIN], env)
        assert f"snm: warning: refusing {own}: its group {group.gr_name} may write in it (mode " \
               "775), a group not yours alone" in login.stderr, login.stderr
        assert os.listdir(own) == []
        os.chown(own, account.pw_uid, account.pw_gid)
        again = run_as(account, [snm, "-c", LOGIN], env)
        assert again.returncode == 0 and "refusing" not in again.stderr, again.stderr
        assert [name for name in os.listdir(own) if name.endswith(".json")]
