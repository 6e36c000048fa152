"""Overwrites in Storage as an adversary meets them (issue 35): an overwrite removes the old
version's file, so the disk holds only live versions; an upload that was not asked to overwrite
never does, even when the name is taken while its body streams or through a signed upload URL;
an overwrite is applied only if the uploader's update policy allows it when it lands, so nobody
replaces another user's bytes or takes their object."""
import json
import pathlib
import socket
import time
import uuid

import httpx
import pytest

from storage_helpers import ALICE, BOB, service, sign_in


def version_files(project):
    """The names of every object version's file on disk."""
    objects = pathlib.Path(project.data_dir) / "storage" / "objects"
    return {path.name for path in objects.rglob("*") if path.is_file()}


def raw_upload(project, token, bucket, name, body, upsert=False, method="POST"):
    headers = {"apikey": project.anon_key, "Authorization": f"Bearer {token}",
               "Content-Type": "text/plain"}
    if upsert:
        headers["x-upsert"] = "true"
    return httpx.request(method, f"{project.url}/storage/v1/object/{bucket}/{name}",
                         headers=headers, content=body)


@pytest.fixture
def bucket(project):
    """A private text bucket of its own, removed afterwards."""
    name = "ow-" + uuid.uuid4().hex[:8]
    service(project).create_bucket(name, options={"public": False})
    yield name
    service(project).empty_bucket(name)
    service(project).delete_bucket(name)


@pytest.fixture
def shared(project, bucket):
    """`bucket` where every signed-in user may read and create, but only the object's owner may
    replace it (an update policy on owner_id)."""
    project.sql(f"""
        create policy "{bucket} read" on storage.objects for select to authenticated
          using (bucket_id = '{bucket}');
        create policy "{bucket} create" on storage.objects for insert to authenticated
          with check (bucket_id = '{bucket}');
        create policy "{bucket} replace own" on storage.objects for update to authenticated
          using (bucket_id = '{bucket}' and owner_id = auth.uid()::text)
          with check (bucket_id = '{bucket}' and owner_id = auth.uid()::text)""")
    yield bucket
    for policy in ("read", "create", "replace own"):
        project.sql(f'drop policy "{bucket} {policy}" on storage.objects')


def row(project, bucket, name):
    """(owner_id, bytes) of an object, read as service_role."""
    owner = project.sql(
        f"select owner_id from storage.objects where bucket_id = '{bucket}' and name = '{name}'")
    return owner, service(project).from_(bucket).download(name)


def test_overwrites_leave_only_the_live_version_on_disk(project, bucket):
    files = service(project).from_(bucket)
    files.upload("avatar.txt", b"first", {"content-type": "text/plain"})
    first = project.sql(f"select version from storage.objects where bucket_id = '{bucket}'")
    before = version_files(project)
    assert first in before
    for round_ in range(50):
        files.upload("avatar.txt", f"round {round_}".encode(),
                     {"content-type": "text/plain", "upsert": "true"})
    files.update("avatar.txt", b"updated", {"content-type": "text/plain"})
    files.upload("other.txt", b"other", {"content-type": "text/plain"})
    copied = httpx.post(f"{project.url}/storage/v1/object/copy",
                        headers={**project.headers(project.service_role_key), "x-upsert": "true"},
                        json={"bucketId": bucket, "sourceKey": "other.txt", "destinationKey": "avatar.txt"})
    assert copied.status_code == 200, copied.text
    after = version_files(project)
    live = {project.sql(f"select version from storage.objects where bucket_id = '{bucket}' "
                        f"and name = '{name}'") for name in ("avatar.txt", "other.txt")}
    # 50 upserts, an update and a copy over the name added the two live versions' files only.
    assert after - before == live
    assert first not in after, "the first version's file went with its row"
    assert files.download("avatar.txt") == b"other"


def test_a_copy_onto_a_taken_name_needs_upsert(project, bucket):
    files = service(project).from_(bucket)
    files.upload("a.txt", b"A", {"content-type": "text/plain"})
    files.upload("b.txt", b"B", {"content-type": "text/plain"})
    taken = httpx.post(f"{project.url}/storage/v1/object/copy",
                       headers=project.headers(project.service_role_key),
                       json={"bucketId": bucket, "sourceKey": "a.txt", "destinationKey": "b.txt"})
    assert taken.json()["statusCode"] == "409", taken.text
    assert files.download("b.txt") == b"B"
    upserted = httpx.post(f"{project.url}/storage/v1/object/copy",
                          headers={**project.headers(project.service_role_key), "x-upsert": "true"},
                          json={"bucketId": bucket, "sourceKey": "a.txt", "destinationKey": "b.txt"})
    assert upserted.status_code == 200, upserted.text
    assert files.download("b.txt") == b"A"


def signed_upload(project, token, bucket, name, upsert=False):
    headers = project.headers(token=token)
    if upsert:
        headers["x-upsert"] = "true"
    answer = httpx.post(f"{project.url}/storage/v1/object/upload/sign/{bucket}/{name}",
                        headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def put_signed(project, bucket, name, upload_token, body):
    return httpx.put(f"{project.url}/storage/v1/object/upload/sign/{bucket}/{name}",
                     params={"token": upload_token}, content=body,
                     headers={"Content-Type": "text/plain"})


def test_a_signed_upload_url_without_upsert_only_creates(project, shared):
    alice = sign_in(project, "alice@example.com")
    bob = sign_in(project, "bob@example.com")
    # Bob signs upload URLs while the name is free, one of them with upsert.
    plain = signed_upload(project, bob, shared, "report.txt")
    overwriting = signed_upload(project, bob, shared, "report.txt", upsert=True)
    # Alice then writes the name.
    assert raw_upload(project, alice, shared, "report.txt", b"alice's report").status_code == 200
    # Neither URL replaces her bytes or makes Bob the owner.
    refused = put_signed(project, shared, "report.txt", plain, b"bob's bytes")
    assert (refused.json()["statusCode"], refused.json()["error"]) == ("409", "Duplicate"), refused.text
    refused = put_signed(project, shared, "report.txt", overwriting, b"bob's bytes")
    assert (refused.json()["statusCode"], refused.json()["code"]) == ("403", "AccessDenied"), refused.text
    assert row(project, shared, "report.txt") == (ALICE, b"alice's report")
    # A URL without upsert creates once, then the name is taken.
    once = signed_upload(project, bob, shared, "once.txt")
    assert put_signed(project, shared, "once.txt", once, b"first").status_code == 200
    again = put_signed(project, shared, "once.txt", once, b"second")
    assert again.json()["statusCode"] == "409", again.text
    assert row(project, shared, "once.txt") == (BOB, b"first")


def streamed_upload(project, token, bucket, name, body, upsert):
    """Starts an upload whose body is held back after its first byte; returns (socket, rest)."""
    tmp = pathlib.Path(project.data_dir) / "storage" / "tmp"
    waiting = set(tmp.iterdir())
    head = (f"POST /storage/v1/object/{bucket}/{name} HTTP/1.1\r\nHost: x\r\n"
            f"apikey: {project.anon_key}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
            + ("x-upsert: true\r\n" if upsert else "") + "\r\n").encode()
    connection = socket.create_connection(("127.0.0.1", project.port), timeout=10)
    connection.sendall(head + body[:1])
    # The body streams into a temporary file once the head is accepted: wait for that file.
    deadline = time.time() + 10
    while time.time() < deadline and set(tmp.iterdir()) <= waiting:
        time.sleep(0.02)
    assert set(tmp.iterdir()) - waiting, "the upload should be streaming"
    return connection, body[1:]


def finish(connection, rest):
    with connection:
        connection.sendall(rest)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])


@pytest.mark.parametrize("upsert, expected", [(False, ("409", "Duplicate")),
                                              (True, ("403", "Unauthorized"))])
def test_a_name_taken_while_an_upload_streams_is_not_overwritten(project, shared, upsert, expected):
    alice = sign_in(project, "alice@example.com")
    bob = sign_in(project, "bob@example.com")
    name = f"race-{upsert}.txt"
    connection, rest = streamed_upload(project, bob, shared, name, b"bob's bytes", upsert)
    assert raw_upload(project, alice, shared, name, b"alice's").status_code == 200
    answer = finish(connection, rest)
    assert (answer["statusCode"], answer["error"]) == expected, answer
    assert row(project, shared, name) == (ALICE, b"alice's")
