"""Row-level security of the demo schema (docs/demo-schema.md) through the gateway: each user sees
and changes only their own rows and what mates share; anon sees what policies give it;
service_role sees everything."""
import httpx
import pytest

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
BOB = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"
CAROL = "2eaf7b9c-8dbf-4b3a-9c5d-4f6e8a0b2c3d"


def sign_in(project, email):
    response = httpx.post(f"{project.auth_url}/token?grant_type=password", headers=project.headers(),
                          json={"email": email, "password": "password123"})
    assert response.status_code == 200, response.text
    return response.json()["access_token"]


def ids(project, table, token=None, key=None, column="id"):
    response = httpx.get(f"{project.rest_url}/{table}?select={column}&order={column}",
                         headers=project.headers(key=key, token=token))
    assert response.status_code == 200, response.text
    return [row[column] for row in response.json()]


@pytest.fixture(scope="module")
def rls_project(start_extra_project):
    return start_extra_project("rls")


def test_each_role_sees_what_its_policies_give(rls_project):
    project = rls_project
    alice, carol = sign_in(project, "alice@example.com"), sign_in(project, "carol@example.com")
    assert ids(project, "user_info") == [CAROL]
    assert ids(project, "dog_profile") == [1, 4]
    assert ids(project, "walk_request") == []
    assert sorted(ids(project, "user_info", token=alice)) == sorted([ALICE, BOB, CAROL])
    assert ids(project, "dog_profile", token=alice) == [1, 2, 3, 4]
    assert ids(project, "walk_request", token=alice) == [1, 2]
    assert ids(project, "user_info", token=carol) == [CAROL]
    assert ids(project, "dog_profile", token=carol) == [1, 4]
    assert ids(project, "walk_request", token=carol) == [2]
    service = project.service_role_key
    assert ids(project, "walk_request", key=service) == [1, 2]
    assert ids(project, "dog_profile", key=service) == [1, 2, 3, 4]


def test_users_change_only_their_own_rows(rls_project):
    project = rls_project
    alice, bob = sign_in(project, "alice@example.com"), sign_in(project, "bob@example.com")
    prefer = {"Prefer": "return=representation", "Content-Type": "application/json"}
    own = httpx.patch(f"{project.rest_url}/user_info?id=eq.{ALICE}",
                      headers={**project.headers(token=alice), **prefer}, json={"age": 32})
    assert own.status_code == 200 and own.json()[0]["age"] == 32
    other = httpx.patch(f"{project.rest_url}/user_info?id=eq.{BOB}",
                        headers={**project.headers(token=alice), **prefer}, json={"age": 1})
    assert other.status_code == 200 and other.json() == [], "a mate's row is readable, not writable"
    bob_row = httpx.get(f"{project.rest_url}/user_info?id=eq.{BOB}&select=age",
                        headers=project.headers(token=bob)).json()
    assert bob_row == [{"age": 28}]
    stolen = httpx.post(f"{project.rest_url}/dog_profile",
                        headers={**project.headers(token=bob), **prefer},
                        json={"owner": ALICE, "name": "Stolen"})
    assert stolen.status_code == 403 and stolen.json()["code"] == "42501"
    anonymous = httpx.post(f"{project.rest_url}/dog_profile",
                           headers={**project.headers(), **prefer},
                           json={"owner": ALICE, "name": "Nobody's"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "42501"
    added = httpx.post(f"{project.rest_url}/dog_profile",
                       headers={**project.headers(token=bob), **prefer},
                       json={"owner": BOB, "name": "콩이"})
    assert added.status_code == 201 and added.json()[0]["name"] == "콩이"
    gone = httpx.delete(f"{project.rest_url}/dog_profile?id=eq.1",
                        headers={**project.headers(token=bob), **prefer})
    assert gone.status_code == 200 and gone.json() == []
    assert 1 in ids(project, "dog_profile", key=project.service_role_key)


def test_auth_uid_and_rpc_run_as_the_caller(rls_project):
    project = rls_project
    carol = sign_in(project, "carol@example.com")
    mine = httpx.post(f"{project.rest_url}/rpc/dogs_of", headers=project.headers(token=carol),
                      json={"owner": ALICE})
    assert mine.status_code == 200 and [dog["id"] for dog in mine.json()] == [1]
    total = httpx.post(f"{project.rest_url}/rpc/sum", headers=project.headers(),
                       json={"numbers": [1, 2, 3]})
    assert total.status_code == 200 and total.json() == 6
