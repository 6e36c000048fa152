"""Storage's access rules as an adversary meets them: RLS policies on storage.objects run as the
request's role (the demo's per-user avatar folders), anon against a private bucket, path
traversal in every spelling, policies on the path helpers, and uploads cut off mid-way, a killed
gateway or a full disk leaving nothing behind."""
import os
import pathlib
import socket
import subprocess
import time
import uuid

import httpx
import pytest
from storage3.exceptions import StorageApiError

from storage_helpers import ALICE, BOB, PNG, service, sign_in, storage


@pytest.fixture
def alice_avatar(project):
    """avatars/<alice>/<random>.png, uploaded by Alice; removed afterwards."""
    alice = storage(project, token=sign_in(project, "alice@example.com")).from_("avatars")
    name = f"{ALICE}/{uuid.uuid4().hex[:8]}.png"
    alice.upload(name, PNG, {"content-type": "image/png"})
    yield name
    service(project).from_("avatars").remove([name])


def failure(call):
    with pytest.raises(StorageApiError) as caught:
        call()
    return caught.value.status, caught.value.code


def test_a_user_reaches_only_their_own_folder(project, alice_avatar):
    alice = storage(project, token=sign_in(project, "alice@example.com")).from_("avatars")
    bob = storage(project, token=sign_in(project, "bob@example.com")).from_("avatars")
    assert alice.download(alice_avatar) == PNG
    assert [e["name"] for e in alice.list(ALICE)] == [alice_avatar.split("/")[1]]

    # Bob cannot read, list, sign, overwrite, move, copy or delete Alice's avatar.
    assert failure(lambda: bob.download(alice_avatar)) == ("404", "not_found")
    assert failure(lambda: bob.info(alice_avatar)) == ("404", "not_found")
    assert bob.list(ALICE) == []
    assert failure(lambda: bob.create_signed_url(alice_avatar, 60)) == ("404", "not_found")
    assert failure(lambda: bob.upload(alice_avatar, b"mine now", {
        "content-type": "image/png", "upsert": "true"})) == ("403", "Unauthorized")
    assert failure(lambda: bob.update(alice_avatar, b"mine now", {"content-type": "image/png"})) == (
        "403", "Unauthorized")
    assert failure(lambda: bob.upload(f"{ALICE}/planted.png", PNG, {"content-type": "image/png"})) == (
        "403", "Unauthorized")
    assert failure(lambda: bob.move(alice_avatar, f"{BOB}/stolen.png")) == ("404", "not_found")
    assert failure(lambda: bob.copy(alice_avatar, f"{BOB}/stolen.png")) == ("404", "not_found")
    assert bob.remove([alice_avatar]) == []
    assert alice.download(alice_avatar) == PNG  # still there, unchanged

    # Alice cannot push her avatar into Bob's folder either: the new row fails the check.
    assert failure(lambda: alice.move(alice_avatar, f"{BOB}/gift.png")) == ("403", "Unauthorized")
    assert failure(lambda: alice.copy(alice_avatar, f"{BOB}/gift.png")) == ("403", "Unauthorized")
    assert not service(project).from_("avatars").exists(f"{BOB}/gift.png")

    # Her own folder is hers: sign, copy, move and remove all work.
    assert httpx.get(alice.create_signed_url(alice_avatar, 60)["signedURL"]).content == PNG
    alice.copy(alice_avatar, f"{ALICE}/copy.png")
    alice.move(f"{ALICE}/copy.png", f"{ALICE}/moved.png")
    assert [r["name"] for r in alice.remove([f"{ALICE}/moved.png"])] == [f"{ALICE}/moved.png"]


def test_anon_cannot_list_or_read_a_private_bucket(project, alice_avatar):
    anon = storage(project).from_("avatars")
    assert anon.list(ALICE) == [] and anon.list() == []
    assert failure(lambda: anon.download(alice_avatar)) == ("404", "not_found")
    assert failure(lambda: anon.upload(f"{ALICE}/anon.png", PNG, {"content-type": "image/png"})) == (
        "403", "Unauthorized")
    # Without any key or token only public buckets answer (Storage's unauthenticated flow).
    bare = httpx.get(f"{project.url}/storage/v1/object/avatars/{alice_avatar}")
    assert bare.status_code == 400 and bare.json()["code"] == "NoSuchBucket"
    listing = httpx.post(f"{project.url}/storage/v1/object/list/avatars", json={"prefix": ALICE})
    assert listing.status_code == 400 and listing.json()["message"] == "Invalid Compact JWS"
    forged = httpx.get(f"{project.url}/storage/v1/bucket",
                       headers={"Authorization": "Bearer " + project.anon_key[:-4] + "AAAA"})
    assert forged.json() == {"statusCode": "403", "code": "AccessDenied", "error": "Unauthorized",
                             "message": "signature verification failed"}


TRAVERSALS = ["../escape.png", "a/../../escape.png", "%2e%2e/escape.png", "a/%2E%2E/escape.png",
              "%2e%2e%2fescape.png", "./x.png", "/etc/passwd", "%2Fetc/passwd", "a%00b.png", "%00"]


def send_raw(project, method, target, body=b"", content_type="image/png"):
    """One request exactly as written (no client normalising `..`): (status, JSON body)."""
    import json
    key = project.service_role_key
    head = (f"{method} {target} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", project.port), timeout=10) as connection:
        connection.sendall(head.encode() + body)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1] or b"null")


def test_an_invalid_keys_message_shows_its_hidden_characters_escaped(project):
    """The gateway's message quotes the key refused: its controls and what reorders or hides a
    line (U+202E, a tag character) as the terminal's escapes, for whichever client prints it.
    U+202E and the tag characters were sent back raw (only C0 and DEL were escaped)."""
    status, body = send_raw(project, "POST",
                            "/storage/v1/object/dog-photos/a%E2%80%AEb%1B%F3%A0%81%81.png", PNG)
    assert (status, body["code"]) == (400, "InvalidKey"), body
    assert body["message"] == "Invalid key: a\\u{202E}b\\u{1B}\\u{E0041}.png", body


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_in_any_spelling_is_an_invalid_key(project, path):
    import urllib.parse
    for method in ("POST", "PUT", "GET", "DELETE"):
        status, body = send_raw(project, method, f"/storage/v1/object/dog-photos/{path}", PNG)
        assert status == 400, (method, body)
        assert body["code"] == "InvalidKey", (method, body)
    moved = httpx.post(f"{project.url}/storage/v1/object/copy", headers=project.headers(
        project.service_role_key), json={"bucketId": "dog-photos", "sourceKey": "nothing.png",
                                          "destinationKey": urllib.parse.unquote(path)})
    assert moved.status_code == 400 and moved.json()["code"] == "InvalidKey", moved.text
    # Nothing was written anywhere but the object store.
    data = pathlib.Path(project.data_dir)
    assert not (data / "escape.png").exists() and not (data.parent / "escape.png").exists()
    assert not (data / "storage" / "escape.png").exists()
    assert sorted(p.name for p in (data / "storage").iterdir()) == ["objects", "tmp"]


def test_bucket_names_with_paths_are_refused(project):
    client = service(project)
    for name in ["../up", "a/b", "x\u0000y", " padded", ""]:
        with pytest.raises(StorageApiError) as caught:
            client.create_bucket(name)
        assert caught.value.status == "400", name


def test_an_upload_cut_off_midway_leaves_no_object_and_no_file(project):
    key = project.service_role_key
    name = f"cut/{uuid.uuid4().hex[:8]}.png"
    head = (f"POST /storage/v1/object/dog-photos/{name} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
            f"Authorization: Bearer {key}\r\nContent-Type: image/png\r\n"
            "Content-Length: 4000000\r\n\r\n").encode()
    tmp = pathlib.Path(project.data_dir) / "storage" / "tmp"
    with socket.create_connection(("127.0.0.1", project.port), timeout=10) as connection:
        connection.sendall(head + b"\x89PNG" * 250_000)
        deadline = time.time() + 5
        while time.time() < deadline and not any(tmp.iterdir()):
            time.sleep(0.05)
        assert any(tmp.iterdir()), "the upload should be streaming into a temporary file"
    deadline = time.time() + 5
    while time.time() < deadline and any(tmp.iterdir()):
        time.sleep(0.05)
    assert list(tmp.iterdir()) == []
    assert not service(project).from_("dog-photos").exists(name)


def test_a_killed_gateway_leaves_no_partial_object(start_extra_project):
    project = start_extra_project("storage-kill")
    key = project.service_role_key
    name = f"kill/{uuid.uuid4().hex[:8]}.png"
    head = (f"POST /storage/v1/object/dog-photos/{name} HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
            f"Authorization: Bearer {key}\r\nContent-Type: image/png\r\n"
            "Content-Length: 4000000\r\n\r\n").encode()
    tmp = pathlib.Path(project.data_dir) / "storage" / "tmp"
    supervisor = int((pathlib.Path(project.data_dir) / "gateway.pid").read_text())
    with socket.create_connection(("127.0.0.1", project.port), timeout=10) as connection:
        connection.sendall(head + b"\x89PNG" * 250_000)
        deadline = time.time() + 5
        while time.time() < deadline and not any(tmp.iterdir()):
            time.sleep(0.05)
        assert any(tmp.iterdir())
        # The gateway may be forked from any of the supervisor's threads: read every task's children.
        workers = [child for task in pathlib.Path(f"/proc/{supervisor}/task").iterdir()
                   for child in (task / "children").read_text().split()]
        assert workers, "the supervisor runs the gateway as a child"
        for worker in workers:
            os.kill(int(worker), 9)
    # The supervisor starts a new gateway, which sweeps what the killed one left.
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            if httpx.get(project.url + "/storage/v1/bucket", headers=project.headers(key)).status_code == 200 \
                    and not any(tmp.iterdir()):
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    assert list(tmp.iterdir()) == []
    assert not service(project).from_("dog-photos").exists(name)


def test_the_path_helpers_answer_as_supabase_storage_does(project):
    """storage.foldername / filename / extension, as policies use them: every folder but the
    last segment, the last segment, what follows the last dot of it (the whole name without one)."""
    answers = project.sql(
        "select storage.foldername('a/b/c.png'), storage.filename('a/b/c.png'), "
        "storage.extension('a/b/c.tar.gz'), storage.foldername('top.png'), "
        "storage.extension('a/noext'), coalesce(storage.filename('a/b/'), 'null')")
    assert answers.split("|") == ["{a,b}", "c.png", "gz", "{}", "noext", ""]


@pytest.fixture
def png_only_bucket(project):
    """A private bucket whose one policy lets users insert only `<their id>/*.png`."""
    name = "ext-" + uuid.uuid4().hex[:8]
    service(project).create_bucket(name)
    project.sql(f"""create policy "{name} png" on storage.objects for insert to authenticated
                    with check (bucket_id = '{name}' and storage.extension(name) = 'png'
                                and storage.filename(name) <> 'x.png'
                                and (storage.foldername(name))[1] = auth.uid()::text)""")
    yield name
    project.sql(f'drop policy "{name} png" on storage.objects')
    service(project).empty_bucket(name)
    service(project).delete_bucket(name)


def test_a_policy_on_the_path_helpers_decides_uploads(project, png_only_bucket):
    alice = storage(project, token=sign_in(project, "alice@example.com")).from_(png_only_bucket)
    alice.upload(f"{ALICE}/dog.png", PNG, {"content-type": "image/png"})
    for refused in (f"{ALICE}/dog.jpg", f"{ALICE}/x.png", f"{BOB}/dog.png", "dog.png"):
        assert failure(lambda: alice.upload(refused, PNG, {"content-type": "image/png"})) == (
            "403", "Unauthorized"), refused
    names = [entry["name"] for entry in service(project).from_(png_only_bucket).list(ALICE)]
    assert names == ["dog.png"]


@pytest.fixture
def small_disk():
    """Mounts tmpfs file systems of a given size (root only); unmounts them afterwards."""
    mounted = []

    def mount(path, size):
        pathlib.Path(path).mkdir(parents=True, exist_ok=True)
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            pytest.skip(f"cannot mount a small file system here: {result.stderr.strip()}")
        mounted.append(path)

    yield mount
    for path in reversed(mounted):
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_a_full_disk_fails_the_upload_and_leaves_the_old_object_whole(start_extra_project, small_disk):
    project = start_extra_project("storage-full")
    store = pathlib.Path(project.data_dir) / "storage"
    small_disk(store, "1m")
    (store / "objects").mkdir()
    (store / "tmp").mkdir()
    files = service(project).from_("dog-photos")
    first = b"\x89PNG" + os.urandom(600_000)
    files.upload("full/a.png", first, {"content-type": "image/png"})
    for name, options in (("full/b.png", {}), ("full/a.png", {"upsert": "true"})):
        with pytest.raises(StorageApiError) as caught:
            files.upload(name, b"\x89PNG" + os.urandom(600_000), {"content-type": "image/png", **options})
        assert caught.value.status == "500", caught.value.to_dict()
    assert not files.exists("full/b.png")
    assert files.download("full/a.png") == first
    assert list((store / "tmp").iterdir()) == []
    assert [entry["name"] for entry in files.list("full")] == ["a.png"]


def test_a_download_to_a_full_disk_leaves_the_destination_as_it_was(project, tmp_path, small_disk):
    from conftest import run_snm
    name = f"big/{uuid.uuid4().hex[:8]}.png"
    service(project).from_("dog-photos").upload(name, b"\x89PNG" + os.urandom(2_000_000),
                                                {"content-type": "image/png"})
    try:
        disk = tmp_path / "disk"
        small_disk(disk, "1m")
        out = disk / "out.png"
        out.write_bytes(b"the old picture")
        result = run_snm("--url", project.url, "--key", project.service_role_key, "-c",
                         f"storage download dog-photos/{name} to '{out}'",
                         env={"XDG_STATE_HOME": str(tmp_path / "state")})
        assert result.returncode == 1, result.stdout
        assert "no space left on device" in result.stderr.lower(), result.stderr
        assert out.read_bytes() == b"the old picture"
        assert sorted(p.name for p in disk.iterdir()) == ["out.png"]
    finally:
        service(project).from_("dog-photos").remove([name])
