"""Helpers for the REST gateway's end-to-end tests (test_rest_*.py): clients for the official
`postgrest` library and raw httpx calls against a running local project."""
import uuid

import httpx
from postgrest import SyncPostgrestClient

KIM = "00000000-0000-4000-8000-000000000001"
LEE = "00000000-0000-4000-8000-000000000002"
PARK = "00000000-0000-4000-8000-000000000003"
EMILE = "00000000-0000-4000-8000-000000000004"


def client(project, key=None, token=None, schema="public"):
    """The official PostgREST client, as supabase-py builds it: apikey + Bearer."""
    key = key or project.anon_key
    return SyncPostgrestClient(
        project.rest_url, schema=schema,
        headers={"apikey": key, "Authorization": f"Bearer {token or key}"})


def service(project, schema="public"):
    return client(project, key=project.service_role_key, schema=schema)


# One client for every call: `httpx.request` would build a new client (and TLS context) each time.
SESSION = httpx.Client(timeout=30)


def http(project, method, path, key=None, token=None, headers=None, **kwargs):
    """One raw request to /rest/v1 with apikey and Bearer set."""
    all_headers = project.headers(key=key, token=token)
    all_headers.update(headers or {})
    return SESSION.request(method, project.rest_url + path, headers=all_headers, **kwargs)


def sign_up(project):
    """A new email user through /auth/v1; returns (user id, access token)."""
    email = f"rest-{uuid.uuid4().hex[:12]}@example.com"
    response = SESSION.post(f"{project.auth_url}/signup", headers=project.headers(),
                            json={"email": email, "password": "password123"})
    assert response.status_code == 200, response.text
    body = response.json()
    return body["user"]["id"], body["access_token"]


SNAPSHOT_TABLES = {"people": "id", "pets": "id", "labels": "id", "pet_labels": "pet_id,label_id",
                   "bios": "person_id", "docs": "id", "notes": "id", "secrets": "id",
                   "walks": "id"}


def snapshot(project, tables=SNAPSHOT_TABLES):
    """Every row of each table (as service_role), to check that nothing changed."""
    rows = {}
    for table, order in tables.items():
        response = http(project, "GET", f"/{table}?select=*&order={order}",
                        key=project.service_role_key)
        assert response.status_code == 200, response.text
        rows[table] = response.json()
    return rows
