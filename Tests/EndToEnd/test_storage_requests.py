"""Storage requests an adversary shapes (issue 35): a delete tells no one whether another user's
object exists; names no object could have (a NUL, over 1,024 bytes) are refused before Postgres
on every route; a move or copy lands only where an upload could (the bucket exists and takes the
object's size and type)."""
import base64
import urllib.parse
import uuid

import httpx
import pytest

from storage_helpers import ALICE, BOB, PNG, service, sign_in


def call(project, method, path, token=None, key=None, **kwargs):
    key = key or project.service_role_key
    headers = {"apikey": key, "Authorization": f"Bearer {token or key}", **kwargs.pop("headers", {})}
    return httpx.request(method, project.url + "/storage/v1" + path, headers=headers, **kwargs)


def test_a_delete_answers_alike_for_another_users_object_and_a_missing_one(project):
    name = f"{ALICE}/{uuid.uuid4().hex[:8]}.png"
    alice = sign_in(project, "alice@example.com")
    bob = sign_in(project, "bob@example.com")
    assert call(project, "POST", f"/object/avatars/{name}", token=alice, key=project.anon_key,
                content=PNG, headers={"Content-Type": "image/png"}).status_code == 200
    try:
        theirs = call(project, "DELETE", f"/object/avatars/{name}", token=bob, key=project.anon_key)
        missing = call(project, "DELETE", f"/object/avatars/{ALICE}/nothing-here.png", token=bob,
                       key=project.anon_key)
        assert theirs.status_code == missing.status_code == 400
        assert theirs.json() == missing.json()
        assert (theirs.json()["statusCode"], theirs.json()["code"]) == ("404", "NoSuchKey")
        assert service(project).from_("avatars").exists(name)
    finally:
        service(project).from_("avatars").remove([name])


LONG = "a" * 1025


def name_routes(bad):
    """Every route that takes an object name, prefix or path, with `bad` in it."""
    quoted = urllib.parse.quote(bad)
    return [
        ("POST", f"/object/dog-photos/{quoted}", {"content": PNG, "headers": {"Content-Type": "image/png"}}),
        ("GET", f"/object/dog-photos/{quoted}", {}),
        ("GET", f"/object/info/dog-photos/{quoted}", {}),
        ("DELETE", f"/object/dog-photos/{quoted}", {}),
        ("POST", f"/object/sign/dog-photos/{quoted}", {"json": {"expiresIn": 60}}),
        ("POST", f"/object/upload/sign/dog-photos/{quoted}", {}),
        ("POST", "/object/sign/dog-photos", {"json": {"expiresIn": 60, "paths": [bad]}}),
        ("DELETE", "/object/dog-photos", {"json": {"prefixes": [bad]}}),
        ("POST", "/object/list/dog-photos", {"json": {"prefix": bad}}),
        ("POST", "/object/list/dog-photos", {"json": {"prefix": "", "search": bad}}),
        ("POST", "/object/list-v2/dog-photos", {"json": {"prefix": bad}}),
        ("POST", "/object/move", {"json": {"bucketId": "dog-photos", "sourceKey": bad, "destinationKey": "x.png"}}),
        ("POST", "/object/copy", {"json": {"bucketId": "dog-photos", "sourceKey": bad, "destinationKey": "x.png"}}),
        ("POST", "/object/move", {"json": {"bucketId": "dog-photos", "sourceKey": "x.png", "destinationKey": bad}}),
        ("POST", "/object/copy", {"json": {"bucketId": "dog-photos", "sourceKey": "x.png", "destinationKey": bad}}),
    ]


@pytest.mark.parametrize("bad", ["a\0b.png", LONG, "b" * 3000], ids=["nul", "1025", "3000"])
def test_names_no_object_could_have_are_invalid_keys(project, bad):
    for method, path, options in name_routes(bad):
        answer = call(project, method, path, **options)
        assert answer.status_code == 400, (method, path[:60], answer.text[:200])
        assert answer.json()["code"] == "InvalidKey", (method, path[:60], answer.text[:200])


def test_a_name_of_1024_bytes_is_an_object(project):
    name = "n" * 1020 + ".png"
    files = service(project).from_("dog-photos")
    files.upload(name, PNG, {"content-type": "image/png"})
    try:
        assert files.download(name) == PNG
    finally:
        files.remove([name])


@pytest.mark.parametrize("bad", ["x%00y", "c" * 101, "d" * 3000], ids=["nul", "101", "3000"])
def test_bucket_names_no_bucket_could_have_are_invalid(project, bad):
    routes = [("GET", f"/bucket/{bad}", {}), ("PUT", f"/bucket/{bad}", {"json": {"public": True}}),
              ("DELETE", f"/bucket/{bad}", {}), ("POST", f"/bucket/{bad}/empty", {}),
              ("POST", f"/object/list/{bad}", {"json": {"prefix": ""}}),
              ("POST", f"/object/list-v2/{bad}", {"json": {}}),
              ("DELETE", f"/object/{bad}", {"json": {"prefixes": ["a"]}}),
              ("POST", f"/object/sign/{bad}", {"json": {"expiresIn": 60, "paths": ["a"]}}),
              ("DELETE", f"/object/{bad}/a.png", {}), ("GET", f"/object/{bad}/a.png", {})]
    for method, path, options in routes:
        answer = call(project, method, path, **options)
        assert answer.status_code == 400, (method, path[:60], answer.text[:200])
        assert answer.json()["code"] == "InvalidBucketName", (method, path[:60], answer.text[:200])


def test_other_text_with_a_nul_is_a_bad_request(project):
    cases = [
        ("GET", "/bucket", {"params": {"search": "a\0b"}}),
        ("PUT", "/bucket/dog-photos", {"json": {"allowed_mime_types": ["image/\u0000*"]}}),
        ("POST", "/object/list-v2/dog-photos",
         {"json": {"cursor": base64.b64encode(b"l:a\0b").decode()}}),
        ("POST", f"/object/dog-photos/nul-{uuid.uuid4().hex[:6]}.png",
         {"content": PNG, "headers": {"Content-Type": "image/png", "x-metadata": base64.b64encode(
             b'{"a": "\\u0000"}').decode()}}),
    ]
    for method, path, options in cases:
        answer = call(project, method, path, **options)
        assert answer.status_code == 400, (method, path, answer.text)
    assert service(project).get_bucket("dog-photos").allowed_mime_types == ["image/*"]


@pytest.fixture
def buckets(project):
    """A source bucket taking anything, and a destination of images up to 100 bytes."""
    client = service(project)
    source, target = "src-" + uuid.uuid4().hex[:8], "dst-" + uuid.uuid4().hex[:8]
    client.create_bucket(source)
    client.create_bucket(target, options={"file_size_limit": 100, "allowed_mime_types": ["image/*"]})
    yield source, target
    for name in (source, target):
        client.empty_bucket(name)
        client.delete_bucket(name)


def test_a_move_or_copy_lands_only_where_an_upload_could(project, buckets):
    source, target = buckets
    files = service(project).from_(source)
    files.upload("big.png", b"\x89PNG" + b"x" * 500, {"content-type": "image/png"})
    files.upload("page.html", b"<script>", {"content-type": "text/html"})
    files.upload("small.png", PNG[:90], {"content-type": "image/png"})
    for kind in ("move", "copy"):
        too_big = call(project, "POST", f"/object/{kind}", json={
            "bucketId": source, "sourceKey": "big.png", "destinationBucket": target, "destinationKey": "big.png"})
        assert (too_big.json()["statusCode"], too_big.json()["code"]) == ("413", "EntityTooLarge"), too_big.text
        wrong_type = call(project, "POST", f"/object/{kind}", json={
            "bucketId": source, "sourceKey": "page.html", "destinationBucket": target,
            "destinationKey": "page.html"})
        assert (wrong_type.json()["statusCode"], wrong_type.json()["code"]) == ("415", "InvalidMimeType")
        nowhere = call(project, "POST", f"/object/{kind}", json={
            "bucketId": source, "sourceKey": "small.png", "destinationBucket": "no-such-" + uuid.uuid4().hex[:6],
            "destinationKey": "small.png"})
        assert (nowhere.json()["statusCode"], nowhere.json()["code"]) == ("404", "NoSuchBucket"), nowhere.text
    # A copy may not give the object a type the destination refuses.
    retyped = call(project, "POST", "/object/copy", json={
        "bucketId": source, "sourceKey": "small.png", "destinationBucket": target, "destinationKey": "x.png",
        "copyMetadata": False, "metadata": {"mimetype": "application/xhtml+xml"}})
    assert (retyped.json()["statusCode"], retyped.json()["code"]) == ("415", "InvalidMimeType"), retyped.text
    assert service(project).from_(target).list() == []
    # What fits goes.
    assert call(project, "POST", "/object/copy", json={
        "bucketId": source, "sourceKey": "small.png", "destinationBucket": target,
        "destinationKey": "copy.png"}).status_code == 200
    assert call(project, "POST", "/object/move", json={
        "bucketId": source, "sourceKey": "small.png", "destinationBucket": target,
        "destinationKey": "moved.png"}).status_code == 200
    assert sorted(o["name"] for o in service(project).from_(target).list()) == ["copy.png", "moved.png"]


def test_a_user_moving_to_a_missing_bucket_is_told_it_is_missing(project):
    bob = sign_in(project, "bob@example.com")
    name = f"{BOB}/{uuid.uuid4().hex[:8]}.png"
    assert call(project, "POST", f"/object/dog-photos/{name}", token=bob, key=project.anon_key,
                content=PNG, headers={"Content-Type": "image/png"}).status_code == 200
    try:
        answer = call(project, "POST", "/object/move", token=bob, key=project.anon_key, json={
            "bucketId": "dog-photos", "sourceKey": name,
            "destinationBucket": "nowhere-" + uuid.uuid4().hex[:6], "destinationKey": name})
        assert (answer.json()["statusCode"], answer.json()["code"]) == ("404", "NoSuchBucket"), answer.text
        assert service(project).from_("dog-photos").exists(name)
    finally:
        service(project).from_("dog-photos").remove([name])


def test_deeply_nested_metadata_is_refused_not_a_crash(project):
    """10,000 levels of x-metadata (what a request head can hold) and 16,000 in a form's field
    overflowed the gateway's stack (signal 11, the connection reset)."""
    headers = project.headers(project.service_role_key)
    header_deep = "[" * 10_000 + "]" * 10_000
    raw = call(project, "POST", f"/object/dog-photos/deep-{uuid.uuid4().hex[:6]}.png", content=PNG,
               headers={"Content-Type": "image/png",
                        "x-metadata": base64.b64encode(('{"a": %s}' % header_deep).encode()).decode()})
    form_deep = "[" * 16_000 + "]" * 16_000
    form = httpx.post(f"{project.url}/storage/v1/object/dog-photos/deep-{uuid.uuid4().hex[:6]}.png",
                      headers=headers, files={"file": ("a.png", PNG, "image/png")},
                      data={"metadata": '{"a": %s}' % form_deep})
    for answer in (raw, form):
        assert answer.status_code == 400, answer.text
        assert answer.json()["message"] == "user metadata may be nested at most 100 levels deep"


@pytest.mark.parametrize("odd", ['"\u0301', "\\"], ids=["quote-before-a-mark", "backslash-at-the-end"])
def test_names_with_quotes_and_backslashes_are_looked_up_as_sent(project, odd):
    """Bulk sign and delete look their names up as one Postgres text[] literal: each `"` and `\\`
    is escaped, a `"` that a combining mark follows (one character to Swift) too, so the list
    holds the names as sent and the others in it are still found."""
    name = f"odd-{uuid.uuid4().hex[:8]}.png"
    odd_name = name + odd
    files = service(project).from_("dog-photos")
    files.upload(name, PNG, {"content-type": "image/png"})
    try:
        signed = call(project, "POST", "/object/sign/dog-photos",
                      json={"expiresIn": 60, "paths": [odd_name, name]})
        assert signed.status_code == 200, signed.text[:300]
        assert [(item["path"], item["signedURL"] is not None) for item in signed.json()] == [
            (odd_name, False), (name, True)]
        removed = call(project, "DELETE", "/object/dog-photos", json={"prefixes": [odd_name, name]})
        assert removed.status_code == 200, removed.text[:300]
        assert [item["name"] for item in removed.json()] == [name]
        assert not files.exists(name)
    finally:
        if files.exists(name):
            files.remove([name])
