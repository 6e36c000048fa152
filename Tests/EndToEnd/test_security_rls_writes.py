"""Who may set which column of the demo schema to what (docs/demo-schema.md, issue 13 item 3):
every transition of a mate link and a walk request, tried by each role (anon, the sender, the
receiver, a third user, service_role) and checked afterwards with service_role, plus the attacks
that worked before: carol making herself alice's accepted mate and reading her private rows, a
sender accepting its own request, ids re-pointed to someone else, a request naming another
user's private dog."""
import itertools
import uuid

import httpx
import pytest

A = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"  # Alice (Bob's accepted mate; dog 2 is private)
B = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"  # Bob (dog 3 is private)
C = "2eaf7b9c-8dbf-4b3a-9c5d-4f6e8a0b2c3d"  # Carol (dog 4 is public)
STATUSES = ["pending", "accepted", "declined", "done"]


class World:
    """Tokens for the seed users and one new user (Dave), and a service_role client."""

    def __init__(self, project):
        self.project = project
        self.http = httpx.Client(timeout=30)
        self.headers = {"anon": project.headers(),
                        "service": project.headers(key=project.service_role_key)}
        self.ids = {"alice": A, "bob": B, "carol": C}
        for name in ("alice", "bob", "carol"):
            token = self.auth("token?grant_type=password",
                              {"email": f"{name}@example.com", "password": "password123"})
            self.headers[name] = project.headers(token=token["access_token"])
        dave = self.auth("signup", {"email": f"dave-{uuid.uuid4().hex[:8]}@example.com",
                                    "password": "password123"})
        self.ids["dave"] = dave["user"]["id"]
        self.headers["dave"] = project.headers(token=dave["access_token"])
        self.call("service", "POST", "user_info", {"id": self.ids["dave"], "name": "Dave"})

    def auth(self, path, body):
        response = self.http.post(f"{self.project.auth_url}/{path}", headers=self.project.headers(),
                                  json=body)
        assert response.status_code == 200, response.text
        return response.json()

    def call(self, actor, method, path, body=None):
        headers = {**self.headers[actor], "Prefer": "return=representation"}
        return self.http.request(method, f"{self.project.rest_url}/{path}", headers=headers,
                                 json=body)

    def make(self, table, row):
        """A row made by service_role (bypassing RLS); returns it."""
        response = self.call("service", "POST", table, row)
        assert response.status_code == 201, response.text
        return response.json()[0]

    def row(self, table, row_id):
        rows = self.call("service", "GET", f"{table}?id=eq.{row_id}").json()
        return rows[0] if rows else None

    def drop(self, table, row_id):
        self.call("service", "DELETE", f"{table}?id=eq.{row_id}")


@pytest.fixture(scope="module")
def world(start_extra_project):
    handle = World(start_extra_project("rls-writes"))
    yield handle
    handle.http.close()


def refused(response, actor, label):
    """A refused write: 401 (anon) or 403 with 42501, or (RLS hiding the row) 200 and no rows."""
    if response.status_code == 200:
        assert response.json() == [], (label, response.text)
    else:
        assert response.status_code == (401 if actor == "anon" else 403), (label, response.text)
        assert response.json()["code"] == "42501", (label, response.text)


# ---- mate: user_id asks, mate_id answers ---------------------------------------------------------

def test_carol_cannot_make_herself_alices_accepted_mate(world):
    attack = world.call("carol", "POST", "mate", {"user_id": C, "mate_id": A, "status": "accepted"})
    assert attack.status_code == 403 and attack.json()["code"] == "42501", attack.text
    private = world.call("carol", "GET", f"user_info?id=eq.{A}&select=age,bio,address").json()
    assert private == [], "carol read alice's private profile"
    dogs = world.call("carol", "GET", f"dog_profile?owner=eq.{A}&select=id").json()
    assert [dog["id"] for dog in dogs] == [1], "carol saw alice's private dog"


@pytest.mark.parametrize("actor", ["anon", "alice", "carol", "dave"])
def test_asking_for_a_mate(world, actor):
    me = world.ids.get(actor, C)  # anon claims to be carol
    other = C if actor == "alice" else A
    cases = [  # (body, allowed for a signed-in user)
        ({"user_id": me, "mate_id": other}, True),
        ({"user_id": me, "mate_id": other, "status": "pending"}, True),
        ({"user_id": me, "mate_id": other, "status": "accepted"}, False),
        ({"user_id": other, "mate_id": me}, False),
        ({"id": 9000, "user_id": me, "mate_id": other}, False),
    ]
    for body, allowed in cases:
        response = world.call(actor, "POST", "mate", body)
        label = f"{actor} inserts mate {body}"
        if allowed and actor != "anon":
            assert response.status_code == 201, (label, response.text)
            row = response.json()[0]
            assert row["status"] == "pending" and row["user_id"] == me, label
            world.drop("mate", row["id"])
        else:
            assert response.status_code == (401 if actor == "anon" else 403), (label, response.text)
            assert response.json()["code"] == "42501", (label, response.text)
    assert [row["id"] for row in world.call("service", "GET", "mate?select=id").json()] == [1]


def test_one_link_per_pair(world):
    # Alice asked Bob (accepted); Bob asking Alice would be a second link between them.
    response = world.call("bob", "POST", "mate", {"user_id": B, "mate_id": A})
    assert response.status_code == 409 and response.json()["code"] == "23505", response.text


@pytest.mark.parametrize("actor", ["anon", "carol", "dave", "alice", "service"])
def test_answering_a_mate_request(world, actor):
    # Carol asks Dave; only Dave (or service_role) may accept; nobody may re-point the link.
    link = world.make("mate", {"user_id": C, "mate_id": world.ids["dave"]})
    try:
        accept = world.call(actor, "PATCH", f"mate?id=eq.{link['id']}", {"status": "accepted"})
        if actor in ("dave", "service"):
            assert accept.status_code == 200 and accept.json()[0]["status"] == "accepted"
            again = world.call(actor, "PATCH", f"mate?id=eq.{link['id']}", {"status": "pending"})
            if actor == "service":
                assert again.json()[0]["status"] == "pending"
            else:
                refused(again, actor, "dave takes an acceptance back")
                assert world.row("mate", link["id"])["status"] == "accepted"
        else:
            refused(accept, actor, f"{actor} accepts carol's request to dave")
            assert world.row("mate", link["id"]) == link
        before = world.row("mate", link["id"])
        for change in ({"mate_id": B}, {"user_id": A}, {"id": 9001}):
            moved = world.call(actor, "PATCH", f"mate?id=eq.{link['id']}", change)
            if actor == "service":
                continue
            refused(moved, actor, f"{actor} re-points the link with {change}")
            assert world.row("mate", link["id"]) == before
    finally:
        world.drop("mate", link["id"])


def test_bob_cannot_re_point_his_link_with_alice(world):
    attack = world.call("bob", "PATCH", "mate?id=eq.1", {"mate_id": C})
    refused(attack, "bob", "bob re-points mate 1 to carol")
    attack = world.call("bob", "PATCH", "mate?id=eq.1", {"user_id": C})
    refused(attack, "bob", "bob re-points mate 1's user_id to carol")
    assert world.row("mate", 1)["user_id"] == A and world.row("mate", 1)["mate_id"] == B


@pytest.mark.parametrize("actor, deletes", [
    ("anon", False), ("alice", False), ("carol", True), ("dave", True), ("service", True)])
def test_ending_a_mate_link(world, actor, deletes):
    link = world.make("mate", {"user_id": C, "mate_id": world.ids["dave"], "status": "accepted"})
    response = world.call(actor, "DELETE", f"mate?id=eq.{link['id']}")
    if deletes:
        assert response.status_code == 200 and len(response.json()) == 1, response.text
        assert world.row("mate", link["id"]) is None
    else:
        assert response.status_code == 200 and response.json() == [], response.text
        assert world.row("mate", link["id"]) == link
        world.drop("mate", link["id"])


# ---- walk_request: the sender asks, the receiver answers ----------------------------------------

@pytest.mark.parametrize("actor, body, allowed", [
    ("carol", {"sender": C, "receiver": A}, True),
    ("carol", {"sender": C, "receiver": A, "dog_id": 4}, True),       # her own dog
    ("carol", {"sender": C, "receiver": A, "dog_id": 1}, True),       # alice's public dog
    ("carol", {"sender": C, "receiver": A, "dog_id": 2}, False),      # alice's private dog
    ("carol", {"sender": C, "receiver": A, "dog_id": 3}, False),      # bob's, a third user
    ("bob", {"sender": B, "receiver": A, "dog_id": 2}, True),         # a mate's private dog
    ("carol", {"sender": C, "receiver": A, "status": "accepted"}, False),
    ("carol", {"sender": C, "receiver": A, "status": "done"}, False),
    ("carol", {"sender": A, "receiver": C}, False),                   # in alice's name
    ("carol", {"sender": C, "receiver": A, "id": 9000}, False),
    ("anon", {"sender": C, "receiver": A}, False),
    ("service", {"sender": C, "receiver": A, "dog_id": 2, "status": "accepted"}, True),
], ids=["plain", "own-dog", "receivers-public-dog", "receivers-private-dog", "third-users-dog",
        "mates-private-dog", "already-accepted", "already-done", "as-someone-else", "chosen-id",
        "anon", "service"])
def test_sending_a_walk_request(world, actor, body, allowed):
    before = [row["id"] for row in world.call("service", "GET", "walk_request?select=id").json()]
    response = world.call(actor, "POST", "walk_request", body)
    if allowed:
        assert response.status_code == 201, response.text
        world.drop("walk_request", response.json()[0]["id"])
    else:
        assert response.status_code == (401 if actor == "anon" else 403), response.text
        assert response.json()["code"] == "42501", response.text
    after = [row["id"] for row in world.call("service", "GET", "walk_request?select=id").json()]
    assert after == before


def test_nobody_walks_with_themselves(world):
    response = world.call("carol", "POST", "walk_request", {"sender": C, "receiver": C})
    assert response.status_code == 400 and response.json()["code"] == "23514", response.text


# (from, to) -> the parties who may make that change; service_role may make any.
ALLOWED = {("pending", "accepted"): {"receiver"}, ("pending", "declined"): {"receiver"},
           ("accepted", "done"): {"sender", "receiver"}}
PARTIES = {"sender": "carol", "receiver": "dave", "third": "alice", "anon": "anon",
           "service": "service"}


@pytest.mark.parametrize("old, new", [pair for pair in itertools.permutations(STATUSES, 2)])
def test_every_walk_request_transition_for_every_role(world, old, new):
    for party, actor in PARTIES.items():
        walk = world.make("walk_request", {"sender": C, "receiver": world.ids["dave"],
                                           "status": old, "message": "walk?"})
        try:
            response = world.call(actor, "PATCH", f"walk_request?id=eq.{walk['id']}",
                                  {"status": new})
            label = f"{party} ({actor}) moves a walk request from {old} to {new}"
            if party == "service" or party in ALLOWED.get((old, new), set()):
                assert response.status_code == 200, (label, response.text)
                assert world.row("walk_request", walk["id"])["status"] == new, label
            else:
                refused(response, actor, label)
                assert world.row("walk_request", walk["id"]) == walk, label
        finally:
            world.drop("walk_request", walk["id"])


@pytest.mark.parametrize("party", ["sender", "receiver", "third", "anon"])
def test_editing_and_re_pointing_a_walk_request(world, party):
    actor = PARTIES[party]
    for status in ("pending", "accepted"):
        walk = world.make("walk_request", {"sender": C, "receiver": world.ids["dave"],
                                           "status": status, "message": "walk?", "dog_id": 4})
        try:
            edit = world.call(actor, "PATCH", f"walk_request?id=eq.{walk['id']}",
                              {"message": "tomorrow?", "walk_at": "2026-01-11T08:00:00+00:00"})
            if party == "sender" and status == "pending":
                assert edit.status_code == 200 and edit.json()[0]["message"] == "tomorrow?"
                walk = world.row("walk_request", walk["id"])
            else:
                refused(edit, actor, f"{party} edits a {status} request")
            for change in ({"sender": A}, {"receiver": A}, {"dog_id": 2}, {"id": 9002}):
                moved = world.call(actor, "PATCH", f"walk_request?id=eq.{walk['id']}", change)
                refused(moved, actor, f"{party} re-points a {status} request with {change}")
            assert world.row("walk_request", walk["id"]) == walk
        finally:
            world.drop("walk_request", walk["id"])


def test_alice_cannot_rewrite_the_sender_of_bobs_request(world):
    attack = world.call("alice", "PATCH", "walk_request?id=eq.1", {"sender": C})
    refused(attack, "alice", "alice rewrites the sender of request 1")
    assert world.row("walk_request", 1)["sender"] == B


@pytest.mark.parametrize("party, deletes", [
    ("sender", True), ("receiver", False), ("third", False), ("anon", False), ("service", True)])
def test_withdrawing_a_walk_request(world, party, deletes):
    walk = world.make("walk_request", {"sender": C, "receiver": world.ids["dave"]})
    response = world.call(PARTIES[party], "DELETE", f"walk_request?id=eq.{walk['id']}")
    assert response.status_code == 200, response.text
    assert len(response.json()) == (1 if deletes else 0), response.text
    assert (world.row("walk_request", walk["id"]) is None) == deletes
    world.drop("walk_request", walk["id"])


# ---- profiles and dogs stay with their owners ----------------------------------------------------

@pytest.mark.parametrize("actor, method, path, body", [
    ("alice", "PATCH", "dog_profile?id=eq.1", {"owner": B}),
    ("alice", "PATCH", f"user_info?id=eq.{A}", {"id": C}),
    ("alice", "POST", "dog_profile", {"owner": B, "name": "For bob"}),
    ("alice", "POST", "dog_profile?on_conflict=id", {"id": 3, "owner": A, "name": "Mine now"}),
    ("anon", "PATCH", "dog_profile?id=eq.1", {"name": "anon"}),
    ("anon", "POST", "user_info", {"id": A, "name": "anon"}),
], ids=["dog-to-bob", "profile-id", "dog-for-bob", "upsert-bobs-dog", "anon-dog",
        "anon-profile"])
def test_owners_never_change(world, actor, method, path, body):
    dogs = world.call("service", "GET", "dog_profile?select=*&order=id").json()
    users = world.call("service", "GET", "user_info?select=*&order=id").json()
    headers = {**world.headers[actor], "Prefer": "return=representation"}
    if "on_conflict" in path:
        headers["Prefer"] += ",resolution=merge-duplicates"
    response = world.http.request(method, f"{world.project.rest_url}/{path}", headers=headers,
                                  json=body)
    refused(response, actor, f"{actor} {method} {path} {body}")
    assert world.call("service", "GET", "dog_profile?select=*&order=id").json() == dogs
    assert world.call("service", "GET", "user_info?select=*&order=id").json() == users


def test_an_owner_upserts_its_own_dog_by_id(world):
    # An app syncing its rows may upsert them by id: the policies keep each dog with its owner.
    headers = {**world.headers["alice"],
               "Prefer": "return=representation,resolution=merge-duplicates"}
    response = world.http.post(f"{world.project.rest_url}/dog_profile?on_conflict=id",
                               headers=headers, json={"id": 2, "owner": A, "name": "Choco"})
    assert response.status_code == 200 and response.json()[0]["name"] == "Choco", response.text
