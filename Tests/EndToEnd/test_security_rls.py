"""Who may do what on every demo table, through the gateway (docs/demo-schema.md): anon (the anon
key alone, and as a bearer), three signed-in users and a new one, and service_role; select, insert,
update, delete and rpc. A write the policies refuse is 401 (anon) / 403 (a user) with 42501, or
touches no row; every write is checked afterwards with service_role, so nothing is lost or extra."""
import uuid

import httpx
import pytest

A = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"  # Alice
B = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"  # Bob, Alice's mate
C = "2eaf7b9c-8dbf-4b3a-9c5d-4f6e8a0b2c3d"  # Carol, public profile
ACTORS = ["anon", "anon-bearer", "alice", "bob", "carol", "service"]

READS = {
    "user_info": {"anon": [C], "alice": [A, B, C], "bob": [A, B, C], "carol": [C],
                  "service": [A, B, C]},
    "dog_profile": {"anon": [1, 4], "alice": [1, 2, 3, 4], "bob": [1, 2, 3, 4], "carol": [1, 4],
                    "service": [1, 2, 3, 4]},
    "mate": {"anon": [], "alice": [1], "bob": [1], "carol": [], "service": [1]},
    "walk_request": {"anon": [], "alice": [1, 2], "bob": [1], "carol": [2], "service": [1, 2]},
}


class Actors:
    """Headers for each actor of the matrix on one project."""

    def __init__(self, project):
        self.project = project
        self.http = httpx.Client(timeout=30)
        self.headers = {
            "anon": {"apikey": project.anon_key},
            "anon-bearer": project.headers(),
            "service": project.headers(key=project.service_role_key),
        }
        for name in ("alice", "bob", "carol"):
            self.headers[name] = project.headers(token=self.sign_in(f"{name}@example.com"))
        email = f"dave-{uuid.uuid4().hex[:8]}@example.com"
        signup = httpx.post(f"{project.auth_url}/signup", headers=project.headers(),
                            json={"email": email, "password": "password123"})
        assert signup.status_code == 200, signup.text
        self.dave_id = signup.json()["user"]["id"]
        self.headers["dave"] = project.headers(token=signup.json()["access_token"])

    def sign_in(self, email):
        response = httpx.post(f"{self.project.auth_url}/token?grant_type=password",
                              headers=self.project.headers(),
                              json={"email": email, "password": "password123"})
        assert response.status_code == 200, response.text
        return response.json()["access_token"]

    def request(self, actor, method, path, body=None):
        headers = {**self.headers[actor], "Prefer": "return=representation"}
        return self.http.request(method, f"{self.project.rest_url}/{path}", headers=headers,
                                 json=body)

    def ids(self, table, actor="service"):
        key = "id"
        response = self.request(actor, "GET", f"{table}?select={key}&order={key}")
        assert response.status_code == 200, (actor, table, response.text)
        return [row[key] for row in response.json()]


@pytest.fixture(scope="module")
def actors(start_extra_project):
    handle = Actors(start_extra_project("security-rls"))
    yield handle
    handle.http.close()


def test_selects(actors):
    for table, expected in READS.items():
        for actor in ACTORS:
            wanted = expected["anon" if actor == "anon-bearer" else actor]
            assert actors.ids(table, actor) == wanted, (table, actor)
            head = actors.http.head(f"{actors.project.rest_url}/{table}",
                              headers={**actors.headers[actor], "Prefer": "count=exact"})
            assert head.headers["content-range"].endswith(f"/{len(wanted)}"), (table, actor)


def test_rpc(actors):
    for actor in ACTORS:
        reader = "anon" if actor.startswith("anon") else actor
        dogs = actors.request(actor, "POST", "rpc/dogs_of", {"owner": A})
        assert dogs.status_code == 200, (actor, dogs.text)
        wanted = [1] if reader in ("anon", "carol") else [1, 2]
        assert [row["id"] for row in dogs.json()] == wanted, actor
        near = actors.request(actor, "GET", "rpc/nearby_dogs?lat=37.5665&lng=126.978&radius_km=5")
        assert near.status_code == 200, (actor, near.text)
        wanted = [1, 4] if reader in ("anon", "carol") else [1, 2, 4]
        assert [row["id"] for row in near.json()] == wanted, actor
        total = actors.request(actor, "POST", "rpc/sum", {"numbers": [1, 2, 3]})
        assert total.status_code == 200 and total.json() == 6, (actor, total.text)
        slept = actors.request(actor, "POST", "rpc/sleep_for", {"seconds": 0})
        assert slept.status_code == 200 and slept.json() == 0, (actor, slept.text)
        private = actors.request(actor, "POST", "rpc/are_mates", {"a": A, "b": B})
        assert private.status_code == 404, (actor, "private.are_mates must not be exposed")


def expect(response, status, rows=None, code=None, label=""):
    assert response.status_code == status, (label, response.status_code, response.text)
    if rows is not None:
        assert len(response.json()) == rows, (label, response.text)
    if code is not None:
        assert response.json()["code"] == code, (label, response.text)
    return response


def test_inserts(actors):
    dave = actors.dave_id
    refused = [
        ("anon", "dog_profile", {"owner": A, "name": "Anon's"}, 401),
        ("anon-bearer", "dog_profile", {"owner": A, "name": "Anon's"}, 401),
        ("carol", "dog_profile", {"owner": A, "name": "Carol's for Alice"}, 403),
        ("anon", "user_info", {"id": dave, "name": "Dave"}, 401),
        ("alice", "user_info", {"id": dave, "name": "Dave"}, 403),
        ("anon", "mate", {"user_id": C, "mate_id": A}, 401),
        ("carol", "mate", {"user_id": A, "mate_id": C}, 403),
        ("anon", "walk_request", {"sender": C, "receiver": A}, 401),
        ("carol", "walk_request", {"sender": A, "receiver": C}, 403),
        ("bob", "walk_request", {"sender": A, "receiver": B}, 403),
    ]
    before = {table: actors.ids(table) for table in READS}
    for actor, table, body, status in refused:
        expect(actors.request(actor, "POST", table, body), status, code="42501",
               label=f"{actor} inserts into {table}")
    assert {table: actors.ids(table) for table in READS} == before, "a refused insert wrote"

    allowed = [
        ("alice", "dog_profile", {"owner": A, "name": "Nabi"}),
        ("service", "dog_profile", {"owner": C, "name": "Service dog"}),
        ("dave", "user_info", {"id": dave, "name": "Dave"}),
        ("carol", "mate", {"user_id": C, "mate_id": A}),
        ("carol", "walk_request", {"sender": C, "receiver": A, "dog_id": 4}),
    ]
    for actor, table, body in allowed:
        row = expect(actors.request(actor, "POST", table, body), 201, rows=1,
                     label=f"{actor} inserts into {table}").json()[0]
        assert row["id"] in actors.ids(table), f"{actor}'s insert into {table} is not there"


def row_of(actors, table, match):
    rows = actors.request("service", "GET", f"{table}?select=*").json()
    found = [row for row in rows if all(row.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (table, match, rows)
    return found[0]


def test_updates(actors):
    cases = [  # (actor, table, row id, body, rows changed)
        ("anon", "user_info", A, {"bio": "anon"}, 0),
        ("bob", "user_info", A, {"bio": "bob"}, 0),      # a mate reads Alice, cannot change her
        ("carol", "user_info", A, {"bio": "carol"}, 0),
        ("anon", "user_info", C, {"bio": "anon"}, 0),    # public to read, not to write
        ("alice", "user_info", A, {"bio": "alice"}, 1),
        ("alice", "dog_profile", 3, {"name": "alice"}, 0),
        ("carol", "dog_profile", 3, {"name": "carol"}, 0),
        ("anon", "dog_profile", 1, {"name": "anon"}, 0),
        ("bob", "dog_profile", 3, {"name": "두부"}, 1),
        ("carol", "mate", 1, {"status": "pending"}, 0),
        ("anon", "mate", 1, {"status": "pending"}, 0),
        ("bob", "mate", 1, {"status": "accepted"}, 0),   # accepted already: nothing to answer
        ("alice", "mate", 1, {"status": "pending"}, 0),  # the asker cannot take it back
        ("carol", "walk_request", 1, {"status": "declined"}, 0),
        ("anon", "walk_request", 1, {"status": "declined"}, 0),
        ("alice", "walk_request", 1, {"status": "accepted"}, 1),  # the receiver may answer
        ("service", "dog_profile", 4, {"breed": "Mixed"}, 1),
    ]
    for actor, table, row_id, body, changed in cases:
        before = row_of(actors, table, {"id": row_id})
        expect(actors.request(actor, "PATCH", f"{table}?id=eq.{row_id}", body), 200, rows=changed,
               label=f"{actor} updates {table} {row_id}")
        after = row_of(actors, table, {"id": row_id})
        if changed:
            assert all(after[k] == v for k, v in body.items()), (actor, table, after)
        else:
            assert after == before, f"{actor} changed {table} {row_id} though refused"
    # Moving a row to someone else fails the policy's check: 42501, and nothing changes.
    before = row_of(actors, "dog_profile", {"id": 1})
    expect(actors.request("alice", "PATCH", "dog_profile?id=eq.1", {"owner": B}), 403,
           code="42501", label="alice gives her dog to bob")
    assert row_of(actors, "dog_profile", {"id": 1}) == before


def test_deletes(actors):
    nabi = row_of(actors, "dog_profile", {"name": "Nabi"})["id"]
    service_dog = row_of(actors, "dog_profile", {"name": "Service dog"})["id"]
    carols_link = row_of(actors, "mate", {"user_id": C})["id"]
    cases = [  # (actor, table, row id, rows deleted)
        ("alice", "walk_request", 1, 0),   # the receiver may not delete
        ("carol", "walk_request", 1, 0),
        ("anon", "walk_request", 1, 0),
        ("bob", "walk_request", 1, 1),     # the sender may
        ("bob", "dog_profile", nabi, 0),
        ("carol", "dog_profile", nabi, 0),
        ("anon", "dog_profile", nabi, 0),
        ("alice", "dog_profile", nabi, 1),
        ("bob", "mate", carols_link, 0),
        ("anon", "mate", carols_link, 0),
        ("alice", "mate", carols_link, 1),  # either side
        ("alice", "user_info", actors.dave_id, 0),
        ("anon", "user_info", actors.dave_id, 0),
        ("dave", "user_info", actors.dave_id, 1),
        ("service", "dog_profile", service_dog, 1),
    ]
    for actor, table, row_id, deleted in cases:
        before = actors.ids(table)
        expect(actors.request(actor, "DELETE", f"{table}?id=eq.{row_id}"), 200, rows=deleted,
               label=f"{actor} deletes {table} {row_id}")
        after = actors.ids(table)
        assert after == ([i for i in before if i != row_id] if deleted else before), \
            (actor, table, row_id, before, after)
    assert actors.ids("walk_request") == sorted([2, row_of(actors, "walk_request",
                                                             {"sender": C})["id"]])
    assert actors.ids("dog_profile") == [1, 2, 3, 4]
    assert actors.ids("mate") == [1]
    assert actors.ids("user_info") == [A, B, C]
