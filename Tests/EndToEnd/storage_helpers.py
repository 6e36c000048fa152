"""Shared pieces of the Storage tests: storage3 clients for each role and the demo users."""
import httpx
from storage3 import SyncStorageClient

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
BOB = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"

# The bytes of a 1x1 PNG: the demo buckets take images only.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def sign_in(project, email):
    """A user's access token (seed users' password is password123)."""
    response = httpx.post(f"{project.auth_url}/token?grant_type=password",
                          headers=project.headers(), json={"email": email, "password": "password123"})
    assert response.status_code == 200, response.text
    return response.json()["access_token"]


def storage(project, key=None, token=None):
    """storage3's client as supabase-py makes it: apikey and the bearer (a user's token or the key)."""
    key = key or project.anon_key
    return SyncStorageClient(project.url + "/storage/v1/",
                             {"apikey": key, "Authorization": f"Bearer {token or key}"})


def service(project):
    return storage(project, key=project.service_role_key)
