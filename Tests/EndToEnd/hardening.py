"""Helpers for the reliability and security tests (test_security_*, test_faults*, test_http_abuse,
test_load): tokens signed with a project's secret, raw sockets, and the project's processes."""
import base64
import hashlib
import hmac
import json
import os
import pathlib
import shutil
import socket
import subprocess
import time


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_secret(project):
    """The project's JWT secret (data dir `jwt-secret`, 0600)."""
    return (pathlib.Path(project.data_dir) / "jwt-secret").read_bytes()


def mint(secret, claims, header=None, alg="HS256"):
    """A JWT over `claims`; HS256 with `secret`, or `alg` none / anything with an empty signature."""
    header = header or {"alg": alg, "typ": "JWT"}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    if alg != "HS256":
        return signing_input + "."
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def user_claims(user_id, **extra):
    """Claims as the Auth gateway issues them for `user_id`, valid for an hour."""
    now = int(time.time())
    claims = {"aud": "authenticated", "exp": now + 3600, "iat": now, "sub": user_id,
              "role": "authenticated", "aal": "aal1", "is_anonymous": False}
    claims.update(extra)
    return claims


def exchange(port, data, read_timeout=5.0):
    """Sends raw bytes, returns what the server answers until it closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as connection:
        connection.sendall(data)
        chunks = []
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except (socket.timeout, ConnectionResetError):
            pass
        return b"".join(chunks)


def status_of(raw):
    """The status code of a raw HTTP/1.1 answer, or None."""
    return int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else None


def gateway_pid(project):
    """The pid of the project's `snm local serve` process (from `snm local status`)."""
    from conftest import run_snm
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    return status.get("gateway_pid")


def postmaster_pid(project):
    """The pid of the project's Postgres postmaster (first line of postmaster.pid)."""
    from conftest import run_snm
    status = json.loads(run_snm("local", "status", "--dir", project.data_dir, "--json").stdout)
    pid_file = pathlib.Path(status["cluster_dir"]) / "data" / "postmaster.pid"
    try:
        return int(pid_file.read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[0] != "Z"


def children(pid):
    """Pids whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def worker_pid(project):
    """The gateway worker: the child of `snm local serve` that serves HTTP (restarted on a crash)."""
    supervisor = gateway_pid(project)
    workers = children(supervisor) if supervisor else []
    return workers[0] if len(workers) == 1 else None


def wait_until(predicate, timeout=30.0, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def wait_for_answer(project, path, ready, key=None, timeout=30.0):
    """Until the gateway's answer to GET /rest/v1/`path` (as `key`, else service_role) is `ready`:
    for a schema reload to take effect. Fails when it never is."""
    import httpx
    headers = project.headers(key or project.service_role_key)
    wait_until(lambda: ready(httpx.get(f"{project.rest_url}/{path}", headers=headers)),
               timeout=timeout, interval=0.3, what=f"the gateway's answer to {path}")


def wait_for_all_rows(project, table, key=None):
    """Until a read of 2,000 rows of `table` answers them all: the reload after
    `pgrst.db_max_rows` was raised past Supabase's 1,000 has taken effect."""
    wait_for_answer(project, f"{table}?select=id&limit=2000",
                    lambda answer: answer.headers.get("content-range", "").startswith("0-1999"),
                    key=key)


def namespaces_work():
    """Whether this process may mount a tmpfs in a mount namespace of its own (`unshare -m`, as
    root): how the tests give snm a full or read-only folder that nothing outside them sees."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c",
                            "mount -t tmpfs -o size=16k tmpfs /mnt && umount /mnt"],
                           capture_output=True)
    return probe.returncode == 0


def process_memory(pid):
    """The bytes of every writable mapping of `pid` (its heap, its threads' stacks), joined; reading
    them needs root, or the same account with snm's PR_SET_DUMPABLE undone."""
    found = []
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("rw"):
                continue
            start, end = (int(part, 16) for part in span.split("-"))
            try:
                mem.seek(start)
                found.append(mem.read(end - start))
            except OSError:
                continue
    return b"".join(found)
