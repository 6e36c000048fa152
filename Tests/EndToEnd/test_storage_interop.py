"""The official `storage3` client against snm local's /storage/v1: every operation it has, with
the answers Supabase Storage gives (shapes, statuses, headers), plus what raw HTTP shows of them."""
import calendar
import hashlib
import time
import uuid

import httpx
import pytest
from storage3.exceptions import StorageApiError

from storage_helpers import PNG, service


@pytest.fixture
def bucket(project):
    """A private bucket of its own (text and images, 1,000 bytes at most), removed afterwards."""
    client = service(project)
    name = "t-" + uuid.uuid4().hex[:8]
    client.create_bucket(name, options={"public": False, "file_size_limit": 1000,
                                        "allowed_mime_types": ["text/*", "image/png"]})
    yield name
    client.empty_bucket(name)
    client.delete_bucket(name)


def raw(project, method, path, key=None, **kwargs):
    key = key or project.service_role_key
    headers = {"apikey": key, "Authorization": f"Bearer {key}", **kwargs.pop("headers", {})}
    return httpx.request(method, project.url + "/storage/v1" + path, headers=headers, **kwargs)


def test_buckets_are_created_listed_changed_emptied_and_deleted(project):
    client = service(project)
    name = "b-" + uuid.uuid4().hex[:8]
    assert client.create_bucket(name, options={"public": True, "file_size_limit": "5MB",
                                               "allowed_mime_types": ["image/*"]}) == {"name": name}
    got = client.get_bucket(name)
    assert (got.id, got.name, got.public, got.file_size_limit, got.allowed_mime_types, got.owner) == (
        name, name, True, 5_000_000, ["image/*"], "")
    assert name in [b.id for b in client.list_buckets()]
    assert {"avatars", "dog-photos"} <= {b.id for b in client.list_buckets()}
    assert client.update_bucket(name, {"public": False, "file_size_limit": 100}) == {
        "message": "Successfully updated"}
    assert (client.get_bucket(name).public, client.get_bucket(name).file_size_limit) == (False, 100)
    with pytest.raises(StorageApiError) as taken:
        client.create_bucket(name)
    assert (taken.value.status, taken.value.code) == ("409", "Duplicate")
    client.from_(name).upload("a.png", PNG, {"content-type": "image/png"})
    with pytest.raises(StorageApiError) as full:
        client.delete_bucket(name)
    assert (full.value.status, full.value.message) == ("409", "The bucket you tried to delete is not empty")
    assert client.empty_bucket(name) == {"message": "Successfully emptied"}
    assert client.delete_bucket(name) == {"message": "Successfully deleted"}
    with pytest.raises(StorageApiError) as gone:
        client.get_bucket(name)
    assert (gone.value.status, gone.value.message) == ("404", "Bucket not found")
    # As Supabase Storage: HTTP 400 for every error but a 500, the real status in the body.
    answer = raw(project, "GET", f"/bucket/{name}")
    assert answer.status_code == 400
    assert answer.json() == {"statusCode": "404", "code": "NoSuchBucket", "error": "Bucket not found",
                             "message": "Bucket not found"}


def test_every_object_operation_of_the_official_client(project, bucket, tmp_path):
    files = service(project).from_(bucket)
    note = tmp_path / "note.txt"
    note.write_bytes(b"a note from disk")
    assert files.upload("docs/hello.txt", b"hello world", {"content-type": "text/plain"}).full_path == (
        f"{bucket}/docs/hello.txt")
    assert files.upload("docs/note.txt", str(note), {"content-type": "text/plain"}).path == "docs/note.txt"
    assert files.upload("top.png", PNG, {"content-type": "image/png", "cache-control": "60"})

    top = files.list()
    assert [(e["name"], e["id"] is None) for e in top] == [("docs", True), ("top.png", False)]
    docs = files.list("docs")
    assert [e["name"] for e in docs] == ["hello.txt", "note.txt"]
    assert docs[0]["metadata"]["size"] == 11 and docs[0]["metadata"]["mimetype"] == "text/plain"
    assert [e["name"] for e in files.list("docs", {"search": "NO"})] == ["note.txt"]
    assert [e["name"] for e in files.list("docs", {"sortBy": {"column": "name", "order": "desc"}})] == [
        "note.txt", "hello.txt"]
    assert [e["name"] for e in files.list("docs", {"limit": 1, "offset": 1})] == ["note.txt"]

    info = files.info("docs/hello.txt")
    assert (info["name"], info["bucket_id"], info["size"], info["content_type"]) == (
        "docs/hello.txt", bucket, 11, "text/plain")
    assert info["etag"] == '"%s"' % hashlib.md5(b"hello world").hexdigest()
    assert info["cache_control"] == "max-age=3600"
    assert files.exists("docs/hello.txt") is True
    assert files.exists("docs/missing.txt") is False
    assert files.download("docs/hello.txt") == b"hello world"
    assert files.download("docs/note.txt") == b"a note from disk"

    signed = files.create_signed_url("docs/hello.txt", 60)["signedURL"]
    assert httpx.get(signed).content == b"hello world"  # no apikey, no token: the URL is enough
    assert httpx.get(signed + "&download=").headers["content-disposition"] == "attachment;"
    many = files.create_signed_urls(["docs/hello.txt", "docs/nope.txt"], 60)
    assert many[0]["error"] is None and httpx.get(many[0]["signedURL"]).content == b"hello world"
    assert (many[1]["signedURL"], many[1]["error"]) == (
        None, "Either the object does not exist or you do not have access to it")

    copied = files.copy("docs/hello.txt", "copies/hello.txt")
    assert copied["Key"] == f"{bucket}/copies/hello.txt"
    assert files.download("copies/hello.txt") == b"hello world"
    moved = files.move("copies/hello.txt", "moved/hello.txt")
    assert (moved["message"], moved["Key"]) == ("Successfully moved", "moved/hello.txt")
    assert files.download("moved/hello.txt") == b"hello world"
    assert not files.exists("copies/hello.txt")

    v2 = files.list_v2({"prefix": "", "with_delimiter": True})
    assert [f.name for f in v2.folders] == ["docs/", "moved/"] and [o.name for o in v2.objects] == ["top.png"]
    page = files.list_v2({"prefix": "docs/", "limit": 1})
    assert page.hasNext and [o.name for o in page.objects] == ["docs/hello.txt"]
    rest = files.list_v2({"prefix": "docs/", "limit": 1, "cursor": page.nextCursor})
    assert [o.name for o in rest.objects] == ["docs/note.txt"] and not rest.hasNext

    upload = files.create_signed_upload_url("signed/x.txt")
    assert upload["token"] and "/object/upload/sign/" in upload["signed_url"]
    assert files.upload_to_signed_url("signed/x.txt", upload["token"], b"via a signed URL",
                                      {"content-type": "text/plain"}).full_path == f"{bucket}/signed/x.txt"
    assert files.download("signed/x.txt") == b"via a signed URL"

    with pytest.raises(StorageApiError) as taken:
        files.upload("docs/hello.txt", b"again", {"content-type": "text/plain"})
    assert (taken.value.status, taken.value.code, taken.value.message) == (
        "409", "Duplicate", "The resource already exists")
    files.upload("docs/hello.txt", b"upserted", {"content-type": "text/plain", "upsert": "true"})
    assert files.download("docs/hello.txt") == b"upserted"
    files.update("docs/hello.txt", b"updated", {"content-type": "text/plain"})
    assert files.download("docs/hello.txt") == b"updated"

    removed = files.remove(["docs/hello.txt", "moved/hello.txt", "not/there.txt"])
    assert sorted(r["name"] for r in removed) == ["docs/hello.txt", "moved/hello.txt"]
    with pytest.raises(StorageApiError) as missing:
        files.download("docs/hello.txt")
    assert (missing.value.status, missing.value.code) == ("404", "not_found")


def test_public_bucket_urls_need_no_key_and_downloads_answer_as_storage_does(project):
    files = service(project).from_("dog-photos")
    name = f"{uuid.uuid4()}/bori.png"
    files.upload(name, PNG, {"content-type": "image/png"})
    try:
        url = files.get_public_url(name)
        bare = httpx.get(url)
        assert bare.status_code == 200 and bare.content == PNG
        etag = '"%s"' % hashlib.md5(PNG).hexdigest()
        assert (bare.headers["content-type"], bare.headers["etag"], bare.headers["accept-ranges"]) == (
            "image/png", etag, "bytes")
        assert bare.headers["content-length"] == str(len(PNG))
        assert "last-modified" in bare.headers and bare.headers["x-robots-tag"] == "none"
        assert httpx.get(url, headers={"If-None-Match": etag}).status_code == 304
        part = httpx.get(url, headers={"Range": "bytes=1-3"})
        assert (part.status_code, part.content, part.headers["content-range"]) == (
            206, PNG[1:4], f"bytes 1-3/{len(PNG)}")
        assert httpx.get(url, headers={"Range": "bytes=9999-"}).status_code == 416
        head = httpx.head(url)
        assert head.status_code == 200 and head.headers["content-length"] == str(len(PNG))
        named = httpx.get(url + "?download=dog.png").headers["content-disposition"]
        assert named == "attachment; filename=dog.png; filename*=UTF-8''dog.png"
        # A private bucket is not reachable through /object/public, whatever the object.
        private = httpx.get(project.url + "/storage/v1/object/public/avatars/x.png")
        assert private.status_code == 400 and private.json()["statusCode"] == "404"
    finally:
        files.remove([name])


def http_date_forms(seconds):
    """A time in RFC 9110's three HTTP-date forms: IMF-fixdate, RFC 850, asctime."""
    t = time.gmtime(seconds)
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    day, month, clock = days[t.tm_wday], months[t.tm_mon - 1], time.strftime("%H:%M:%S", t)
    return (f"{day[:3]}, {t.tm_mday:02} {month} {t.tm_year} {clock} GMT",
            f"{day}, {t.tm_mday:02}-{month}-{t.tm_year % 100:02} {clock} GMT",
            f"{day[:3]} {month} {t.tm_mday:2} {clock} {t.tm_year}")


def test_if_modified_since_is_read_in_all_three_http_date_forms(project):
    """RFC 9110 5.6.7: a recipient takes IMF-fixdate, RFC 850 and asctime dates; a date that is
    none of them (or names the wrong day) is ignored, the whole object sent (13.1.3)."""
    files = service(project).from_("dog-photos")
    name = f"{uuid.uuid4()}/bori.png"
    files.upload(name, PNG, {"content-type": "image/png"})
    try:
        url = files.get_public_url(name)
        modified = httpx.get(url).headers["last-modified"]
        seconds = calendar.timegm(time.strptime(modified, "%a, %d %b %Y %H:%M:%S GMT"))
        for form in http_date_forms(seconds) + http_date_forms(seconds + 86400):
            answer = httpx.get(url, headers={"If-Modified-Since": form})
            assert (form, answer.status_code, answer.content) == (form, 304, b"")
        earlier = http_date_forms(seconds - 1)
        # The next day's date under this day's name: a date that does not exist.
        wrong_day = modified[:3] + http_date_forms(seconds + 86400)[0][3:]
        for form in earlier + (wrong_day, modified.lower(), modified.replace("GMT", "UTC")):
            answer = httpx.get(url, headers={"If-Modified-Since": form})
            assert (form, answer.status_code, answer.content) == (form, 200, PNG)
    finally:
        files.remove([name])


def test_bucket_limits_answer_with_storages_error_shape(project, bucket):
    files = service(project).from_(bucket)
    assert files.upload("fits.txt", b"x" * 1000, {"content-type": "text/plain"})
    with pytest.raises(StorageApiError) as large:
        files.upload("big.txt", b"x" * 1001, {"content-type": "text/plain"})
    assert (large.value.status, large.value.code, large.value.message) == (
        "413", "Payload too large", "The object exceeded the maximum allowed size")
    with pytest.raises(StorageApiError) as typed:
        files.upload("a.pdf", b"%PDF", {"content-type": "application/pdf"})
    assert (typed.value.status, typed.value.code, typed.value.message) == (
        "415", "invalid_mime_type", "mime type application/pdf is not supported")
    # A raw body says its size: refused at once, HTTP 400 with statusCode 413, never stored.
    answer = raw(project, "POST", f"/object/{bucket}/raw.txt", content=b"y" * 1001,
                 headers={"Content-Type": "text/plain"})
    assert answer.status_code == 400 and answer.json() == {
        "statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large",
        "message": "The object exceeded the maximum allowed size"}
    assert [e["name"] for e in files.list()] == ["fits.txt"]
    assert not files.exists("big.txt") and not files.exists("raw.txt")


def test_an_upload_refused_by_its_head_is_answered_before_its_body_is_sent(project, bucket):
    """The answer comes while the client still holds 100 MB it has not sent."""
    import socket
    key = project.service_role_key
    head = (f"POST /storage/v1/object/{bucket}/huge.txt HTTP/1.1\r\nHost: x\r\napikey: {key}\r\n"
            f"Authorization: Bearer {key}\r\nContent-Type: text/plain\r\n"
            "Content-Length: 100000000\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", project.port), timeout=10) as connection:
        connection.sendall(head)
        answer = connection.recv(65536).decode()
    assert answer.startswith("HTTP/1.1 400") and '"statusCode":"413"' in answer
    assert "Connection: close" in answer


def test_signed_urls_are_bound_to_their_object_scope_and_time(project, bucket):
    files = service(project).from_(bucket)
    files.upload("a.txt", b"A", {"content-type": "text/plain"})
    files.upload("b.txt", b"B", {"content-type": "text/plain"})
    signed = files.create_signed_url("a.txt", 1)["signedURL"]
    # The binding is checked with a token that outlives a slow machine (a 1 s one may expire first).
    token = files.create_signed_url("a.txt", 60)["signedURL"].split("token=")[1]
    other = httpx.get(f"{project.url}/storage/v1/object/sign/{bucket}/b.txt?token={token}")
    assert other.status_code == 400 and other.json()["code"] == "InvalidSignature"
    upload_token = files.create_signed_upload_url("c.txt")["token"]
    as_download = httpx.get(f"{project.url}/storage/v1/object/sign/{bucket}/c.txt?token={upload_token}")
    assert as_download.json()["message"] == "Token is not scoped for download"
    time.sleep(2.1)
    late = httpx.get(signed)
    assert (late.status_code, late.json()["code"], late.json()["message"]) == (
        400, "InvalidJWT", '"exp" claim timestamp check failed')


def test_list_v2_with_a_delimiter_keys_every_entry_as_storage_does(project, bucket):
    """Supabase Storage's search_v2 gives each entry of a delimited list-v2 its `key` (the name's
    part at the prefix's depth) and a folder no id and no times; storage3 requires a folder's key.
    Without a delimiter the objects are plain rows, no key."""
    files = service(project).from_(bucket)
    for name in ("docs/deep/a.txt", "docs/b.txt", "top.txt"):
        files.upload(name, b"x", {"content-type": "text/plain"})
    root = raw(project, "POST", f"/object/list-v2/{bucket}", json={"with_delimiter": True}).json()
    assert root["folders"] == [{"key": "docs", "name": "docs/", "id": None, "updated_at": None,
                                "created_at": None, "last_accessed_at": None, "metadata": None}]
    assert [(o["key"], o["name"]) for o in root["objects"]] == [("top.txt", "top.txt")]
    docs = raw(project, "POST", f"/object/list-v2/{bucket}",
               json={"prefix": "docs/", "with_delimiter": True}).json()
    assert [(f["key"], f["name"]) for f in docs["folders"]] == [("deep", "docs/deep/")]
    assert [(o["key"], o["name"]) for o in docs["objects"]] == [("b.txt", "docs/b.txt")]
    assert [f.key for f in files.list_v2({"prefix": "docs/", "with_delimiter": True}).folders] == ["deep"]
    flat = raw(project, "POST", f"/object/list-v2/{bucket}", json={"prefix": "docs/"}).json()
    assert [o["name"] for o in flat["objects"]] == ["docs/b.txt", "docs/deep/a.txt"]
    assert all("key" not in o for o in flat["objects"])
