"""50 clients at once for 5 s (60 s with `scripts/test --long`) of mixed reads, writes, updates and
rpc against a local project: no request fails, and every write a client was told succeeded is in
Postgres afterwards (counted there, not through the gateway). Latency percentiles are printed and
written to SNM_TEST_WORKDIR/load.json; they are reported, not gated. Each client connects and makes
one request before the clock starts (the cold start, reported as `first_request`)."""
import http.client
import json
import os
import random
import subprocess
import threading
import time
import urllib.parse

import pytest

from conftest import LONG, WORKDIR

CLIENTS = 50
SECONDS = 60 if LONG else 5
ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
BOB = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"


class Client(threading.Thread):
    """One keep-alive connection doing a random mix until the deadline."""

    def __init__(self, number, project, tokens, start, deadline):
        super().__init__(daemon=True)
        self.number, self.project, self.tokens = number, project, tokens
        self.start_event, self.deadline = start, deadline
        self.random = random.Random(number)
        self.latencies = {}
        self.errors = []
        self.inserted = []   # (id, message) the gateway said it stored
        self.updated = {}    # id -> walk_at hour (UTC) the gateway said it set
        self.connection = None
        self.ready = threading.Event()

    def request(self, kind, method, path, token, body=None, prefer=None):
        host = urllib.parse.urlsplit(self.project.url)
        headers = {"apikey": self.project.anon_key, "Authorization": f"Bearer {token}",
                   "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if prefer:
            headers["Prefer"] = prefer
        started = time.perf_counter()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as error:
            self.connection = None
            self.errors.append(f"{kind}: {type(error).__name__}: {error}")
            return None
        self.latencies.setdefault(kind, []).append(time.perf_counter() - started)
        if response.getheader("Connection", "").lower() == "close":
            self.connection = None
        if status >= 400:
            self.errors.append(f"{kind}: HTTP {status} {payload[:200]!r}")
            return None
        return payload

    def run(self):
        anon, alice = self.tokens["anon"], self.tokens["alice"]
        # Connect and warm up before the clock starts: the first requests open the gateway's
        # Postgres connections, reported apart as "first request".
        self.request("first request", "GET", "/rest/v1/dog_profile?select=id", alice)
        self.ready.set()
        self.start_event.wait()
        count = 0
        while time.monotonic() < self.deadline:
            roll = self.random.random()
            if roll < 0.35:
                self.request("read", "GET", "/rest/v1/dog_profile?select=id,name,owner&order=id",
                             self.random.choice([anon, alice]))
            elif roll < 0.50:
                self.request("read embed", "GET",
                             "/rest/v1/user_info?select=name,dog_profile(name)&order=name", alice)
            elif roll < 0.60:
                self.request("rpc", "POST", "/rest/v1/rpc/dogs_of", alice, {"owner": ALICE})
            elif roll < 0.85 or not self.inserted:
                count += 1
                message = f"load-{self.number}-{count}"
                payload = self.request(
                    "insert", "POST", "/rest/v1/walk_request?select=id", alice,
                    {"sender": ALICE, "receiver": BOB, "message": message},
                    prefer="return=representation")
                if payload is not None:
                    self.inserted.append((json.loads(payload)[0]["id"], message))
            else:
                # The sender moves its pending request to another hour (the demo's policies let
                # only the receiver answer it).
                row_id, _ = self.random.choice(self.inserted)
                hour = self.random.randrange(24)
                payload = self.request(
                    "update", "PATCH", f"/rest/v1/walk_request?id=eq.{row_id}&select=id", alice,
                    {"walk_at": f"2026-01-10T{hour:02d}:00:00+00:00"},
                    prefer="return=representation")
                if payload is not None:
                    assert json.loads(payload) == [{"id": row_id}]
                    self.updated[row_id] = str(hour)
        if self.connection is not None:
            self.connection.close()


def percentiles(values):
    ordered = sorted(values)
    def at(fraction):
        return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)
    return {"count": len(ordered), "p50_ms": at(0.50), "p90_ms": at(0.90), "p99_ms": at(0.99),
            "max_ms": round(ordered[-1] * 1000, 2)}


def psql(project, sql):
    """Runs `sql` in the project's Postgres as the superuser, over its socket; rows as tuples."""
    status = json.loads(subprocess.run(
        [os.environ.get("SNM_BIN", "snm"), "local", "status", "--dir", project.data_dir, "--json"],
        capture_output=True, text=True, check=True).stdout)
    settings = {}
    with open(os.path.join(status["cluster_dir"], "data", "postgresql.conf")) as conf:
        for line in conf:
            name, _, value = line.partition("=")
            settings[name.strip()] = value.split("#")[0].strip().strip("'")
    command = ["psql", "-h", settings["unix_socket_directories"],
               "-p", settings.get("port", "5432"), "-U", "postgres", "-d", "postgres",
               "-At", "-F", "\t", "-c", sql]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("\t")) for line in out.splitlines() if line]


def sign_in(project, email):
    host = urllib.parse.urlsplit(project.url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    connection.request("POST", "/auth/v1/token?grant_type=password",
                       body=json.dumps({"email": email, "password": "password123"}),
                       headers={"apikey": project.anon_key, "Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 200
    return json.loads(response.read())["access_token"]


def test_fifty_clients_mixed_load_loses_nothing(start_extra_project):
    project = start_extra_project("load")
    tokens = {"anon": project.anon_key, "alice": sign_in(project, "alice@example.com")}
    start = threading.Event()
    deadline = time.monotonic() + 3600
    clients = [Client(number, project, tokens, start, deadline) for number in range(CLIENTS)]
    for client in clients:
        client.start()
    for client in clients:
        assert client.ready.wait(timeout=120), "a client could not make its first request"
    first = [value for client in clients for value in client.latencies.pop("first request", [])]
    began = time.monotonic()
    for client in clients:
        client.deadline = began + SECONDS
    start.set()
    for client in clients:
        client.join(timeout=SECONDS + 90)
    elapsed = time.monotonic() - began
    assert not any(client.is_alive() for client in clients), "a client hung"

    errors = [error for client in clients for error in client.errors]
    latencies = {}
    for client in clients:
        for kind, values in client.latencies.items():
            latencies.setdefault(kind, []).extend(values)
    every = [value for values in latencies.values() for value in values]
    report = {
        "clients": CLIENTS, "seconds": round(elapsed, 2), "requests": len(every),
        "requests_per_second": round(len(every) / elapsed, 1), "errors": len(errors),
        "all": percentiles(every),
        "first_request": percentiles(first) if first else None,
        "by_kind": {kind: percentiles(values) for kind, values in sorted(latencies.items())},
    }

    inserted = {message: row_id for client in clients for row_id, message in client.inserted}
    stored = dict((message, int(row_id)) for row_id, message in psql(
        project, "select id, message from public.walk_request where message like 'load-%'"))
    report["writes"] = {"inserted": len(inserted), "in_postgres": len(stored),
                        "updated": sum(len(client.updated) for client in clients)}
    WORKDIR.mkdir(parents=True, exist_ok=True)
    (WORKDIR / "load.json").write_text(json.dumps(report, indent=2) + "\n")
    print("\nload:", json.dumps(report, indent=2))

    assert errors == [], f"{len(errors)} errors, first: {errors[:5]}"
    assert len(every) > CLIENTS, "the clients made almost no requests"
    assert stored == {message: row_id for message, row_id in inserted.items()}, \
        f"lost writes: {sorted(set(inserted) - set(stored))[:5]}, " \
        f"unexpected: {sorted(set(stored) - set(inserted))[:5]}"
    last_status = {}
    for client in clients:
        last_status.update(client.updated)
    if last_status:
        ids = ",".join(str(row_id) for row_id in last_status)
        statuses = dict((int(row_id), hour) for row_id, hour in psql(
            project, "select id, extract(hour from walk_at at time zone 'UTC')::int "
                     f"from public.walk_request where id in ({ids})"))
        assert statuses == last_status, "an acknowledged update is missing"
