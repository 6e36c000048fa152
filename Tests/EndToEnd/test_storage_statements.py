"""The `storage` statements as people use them: at the prompt, in `-c` scripts with `let` and
`expect`, in every output format, through `snm explain`, with Tab completing buckets and folders,
and the bytes of uploads and downloads going from and to disk whole."""
import json
import os
import re
import time
import uuid

import pytest

from conftest import SNM, run_snm
from storage_helpers import BOB, PNG, service
from tmux_shell import TmuxShell


@pytest.fixture
def env(project, tmp_path):
    return {**os.environ, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat"}


@pytest.fixture
def folder(project):
    """A folder of dog-photos of its own (service role writes it), removed afterwards."""
    name = "st-" + uuid.uuid4().hex[:8]
    files = service(project).from_("dog-photos")
    files.upload(f"{name}/a.png", PNG, {"content-type": "image/png"})
    files.upload(f"{name}/sub/b.png", PNG, {"content-type": "image/png"})
    yield name
    files.remove([f"{name}/a.png", f"{name}/sub/b.png", f"{name}/c.png"])


def snm(env, *statements, fmt=None, key=None):
    args = ["-c", "\n".join(statements)]
    if fmt:
        args += ["--format", fmt]
    if key:
        args = ["--key", key] + args
    return run_snm(*args, env=env, timeout=60)


def test_a_listing_prints_in_every_format(project, env, folder):
    table = snm(env, f"storage ls dog-photos/{folder}/")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split("|")[0].strip() == "name" and "size" in lines[0] and "updated_at" in lines[0]
    cells = [[cell.strip() for cell in line.split("|")] for line in lines]
    assert ["a.png", str(len(PNG)), "image/png"] in [row[:3] for row in cells]
    assert any(line.strip().startswith("sub/") for line in lines) and lines[-1] == "(2 rows)"
    rows = json.loads(snm(env, f"storage ls dog-photos/{folder}", fmt="json").stdout)
    assert [(r["name"], r["size"], r["type"]) for r in rows] == [("a.png", len(PNG), "image/png"),
                                                                ("sub/", None, None)]
    ndjson = snm(env, f"storage ls dog-photos/{folder} limit 1", fmt="ndjson").stdout.splitlines()
    assert [json.loads(line)["name"] for line in ndjson] == ["a.png"]
    csv = snm(env, f"storage ls dog-photos/{folder}/ order by name desc", fmt="csv").stdout
    assert csv.splitlines()[0] == "name,size,type,updated_at" and csv.splitlines()[1].startswith("sub/,")
    expanded = snm(env, f"storage ls dog-photos/{folder} search 'A'", fmt="expanded").stdout
    assert "name       | a.png" in expanded


def test_a_script_uploads_signs_downloads_and_checks_with_let_and_expect(project, env, tmp_path, folder):
    picture = tmp_path / "bori.png"
    picture.write_bytes(PNG * 100)
    out = tmp_path / "copy.png"
    mine = f"dog-photos/{BOB}/{folder}.png"
    try:
        result = snm(env,
                     "login email 'bob@example.com' password 'password123'",
                     "let me = $session.user_id",
                     f"storage upload '{picture}' to \"dog-photos/${{me}}/{folder}.png\"",
                     "expect status 200",
                     f"storage upload '{picture}' to dog-photos/{folder}/c.png",
                     "expect error AccessDenied",
                     "expect status 403",
                     f"let info = storage info dog-photos/{folder}/a.png",
                     f"expect $info.size == {len(PNG)}",
                     f"let link = storage sign dog-photos/{folder}/a.png expires 60 download",
                     "expect $link.signedURL matches 'token=.*download='",
                     f"storage download {mine} to '{out}'",
                     f"let there = storage exists dog-photos/{folder}/nope.png",
                     "expect $there.exists == false",
                     f"storage ls dog-photos/{folder}/",
                     "expect rows 2",
                     "echo 'done ${link.expiresIn}'")
        assert result.returncode == 0, result.stderr
        assert out.read_bytes() == PNG * 100
        assert f"uploaded {picture} to {mine} ({len(PNG) * 100:,} bytes)" in result.stdout
        assert f"downloaded {mine} to {out} ({len(PNG) * 100:,} bytes)" in result.stdout
        assert result.stdout.rstrip().endswith("done 60")
        failing = snm(env, f"storage ls dog-photos/{folder}/", "expect rows 3")
        assert failing.returncode == 1 and "found:    2 rows" in failing.stderr, failing.stderr
    finally:
        service(project).from_("dog-photos").remove([f"{BOB}/{folder}.png"])


def test_a_refused_statement_says_why_and_fails_the_script(project, env, folder):
    result = snm(env, f"storage upload '/etc/hostname' to avatars/{uuid.uuid4()}/x.txt")
    assert result.returncode == 1
    assert "error InvalidMimeType (storage 415, HTTP 400): mime type text/plain is not supported" \
        in result.stderr
    missing = snm(env, "storage upload '/nonexistent/x.png' to dog-photos/x/x.png")
    assert missing.returncode == 1 and "cannot read '/nonexistent/x.png': no such file" in missing.stderr
    typo = snm(env, "storage uplaod 'a' to b/c")
    assert typo.returncode == 2 and "help: did you mean 'upload'?" in typo.stderr


def test_downloads_print_text_but_not_bytes(project, env, folder):
    client = service(project)
    client.create_bucket(folder, options={"public": False})
    try:
        client.from_(folder).upload("note.txt", "woof 🐶\n".encode(), {"content-type": "text/plain"})
        text = snm(env, f"storage download {folder}/note.txt", key=project.service_role_key)
        assert (text.returncode, text.stdout) == (0, "woof 🐶\n")
        binary = snm(env, f"storage download dog-photos/{folder}/a.png")
        assert binary.returncode == 0
        assert binary.stdout.strip() == (f"{len(PNG)} bytes of image/png; save them with: "
                                         f"storage download dog-photos/{folder}/a.png to FILE")
        as_json = json.loads(snm(env, f"storage download dog-photos/{folder}/a.png", fmt="json").stdout)
        assert as_json == {"path": f"dog-photos/{folder}/a.png", "bytes": len(PNG), "contentType": "image/png"}
    finally:
        client.empty_bucket(folder)
        client.delete_bucket(folder)


def test_a_home_path_from_c_is_under_the_home_folder(env, tmp_path):
    """`~/` at the start of a local file is the home folder in a script file, and for `> 'file'`
    and `invoke ... file` anywhere, but `storage upload` and `download ... to` from `-c`, `snm
    explain` and the prompt (no script folder) took it as written, a folder named '~' under the
    working directory (`"upload":"~/up.png"`, `curl ... -o '~/got.png'`): the upload failed, 'no
    such file'. They are resolved as the others are (read through explain: nothing is written).
    The home folder is $HOME's, as shells take it: it was the account's, whatever HOME said."""
    home = str(tmp_path / "home")
    env = dict(env, HOME=home)
    explained = run_snm("explain", "--json", "storage upload '~/up.png' to avatars/up.png",
                        "storage download avatars/a.png to '~/got.png'", env=env)
    assert explained.returncode == 0, explained.stderr
    upload, download = [json.loads(line) for line in explained.stdout.splitlines()]
    assert (upload["upload"], download["download_to"]) == (f"{home}/up.png", f"{home}/got.png")
    curl = run_snm("explain", "--curl", "storage download avatars/a.png to '~/got.png'", env=env)
    assert f"-o '{home}/got.png'" in curl.stdout, curl.stdout + curl.stderr


def test_explain_shows_each_request_without_sending_it(env, tmp_path):
    explained = run_snm("explain", "--json", "storage upload 'bori.jpg' to avatars/dogs/bori.jpg upsert",
                        "storage sign avatars/a.png expires 60", "storage url dog-photos/a.png", env=env)
    assert explained.returncode == 0, explained.stderr
    upload, sign, url = [json.loads(line) for line in explained.stdout.splitlines()]
    assert (upload["method"], upload["path"], upload["upload"]) == (
        "POST", "/storage/v1/object/avatars/dogs/bori.jpg", "bori.jpg")
    assert upload["headers"] == {"x-upsert": "true", "cache-control": "max-age=3600",
                                 "content-type": "image/jpeg"}
    assert (sign["body"], sign["url"]) == ({"expiresIn": 60}, env["SUPABASE_URL"] + "/storage/v1/object/sign/avatars/a.png")
    assert url == {"url": env["SUPABASE_URL"] + "/storage/v1/object/public/dog-photos/a.png", "request": None}
    curl = run_snm("explain", "--curl", "storage download avatars/a.png to out.png", env=env).stdout
    assert "-o 'out.png'" in curl and '-H "apikey: $SUPABASE_ANON_KEY"' in curl
    script = tmp_path / "rm.snm"
    script.write_text("storage rm a/x.png, b/y.png\n")
    check = run_snm("check", str(script), env=env)
    assert check.returncode == 2 and "one 'storage rm' removes from one bucket, not 'a' and 'b'" in check.stderr


def test_tab_completes_buckets_and_folders(project, env, folder):
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        shell.type("storage ls dog-")
        shell.press("Tab")
        shell.wait_for(lambda s: s.splitlines()[-1].endswith("storage ls dog-photos/"))
        shell.type(folder[:6])
        shell.press("Tab")  # the first Tab on a folder lists it in the background
        time.sleep(1)
        shell.press("Tab")
        shell.wait_for(lambda s: s.splitlines()[-1].endswith(f"storage ls dog-photos/{folder}/"))
        shell.press("Tab")
        time.sleep(1)
        shell.press("Tab")
        screen = shell.wait_for(lambda s: "sub/" in s and "a.png" in s)
        assert f"dog-photos/{folder}/a.png" in screen or "a.png" in screen


STATEMENTS = [  # (statement, what the table formats print: a line's start, or None for rows)
    ("storage create bucket {b} public limit 1MB types 'image/*'", "created bucket {b}"),
    ("storage upload '{png}' to {b}/a.png", "uploaded {png} to {b}/a.png"),
    ("storage buckets", None),
    ("storage info {b}/a.png", None),
    ("storage exists {b}/a.png", "true"),
    ("storage sign {b}/a.png expires 60", "http"),
    ("storage url {b}/a.png", "http"),
    ("storage cp {b}/a.png to {b}/c.png", "copied {b}/a.png to {b}/c.png"),
    ("storage mv {b}/c.png to {b}/d.png", "moved {b}/c.png to {b}/d.png"),
    ("storage ls {b}", None),
    ("storage download {b}/a.png to '{out}'", "downloaded {b}/a.png to {out}"),
    ("storage download {b}/a.png", "{size} bytes of image/png"),
    ("storage rm {b}/d.png", "removed 1 of 1 object"),
    ("storage empty bucket {b}", "emptied bucket {b}"),
    ("storage drop bucket {b}", "dropped bucket {b}"),
]


@pytest.mark.parametrize("fmt", ["table", "expanded", "json", "ndjson", "csv"])
def test_every_statement_prints_in_every_format(project, env, tmp_path, fmt):
    """Each statement's result, one statement a run: a line or rows at the table formats, JSON
    documents at json, one JSON object a line at ndjson, a header and rows at csv."""
    picture = tmp_path / "a.png"
    picture.write_bytes(PNG)
    names = {"b": "fmt-" + uuid.uuid4().hex[:8], "png": str(picture), "out": str(tmp_path / "out.png"),
             "size": len(PNG)}
    try:
        for template, line in STATEMENTS:
            statement = template.format(**names)
            result = snm(env, statement, fmt=fmt, key=project.service_role_key)
            assert result.returncode == 0, (statement, result.stderr)
            out = result.stdout
            assert out.strip(), statement
            if fmt in ("table", "expanded"):
                if line is not None:
                    assert out.startswith(line.format(**names)), (statement, out)
                elif fmt == "table":
                    assert out.splitlines()[1].startswith("-") and re.search(r"\((1 row|\d+ rows)\)$", out.rstrip()), out
                else:
                    assert out.startswith("-[ RECORD 1 ]"), (statement, out)
            elif fmt == "json":
                value = json.loads(out)
                assert isinstance(value, (dict, list)) and value, (statement, out)
            elif fmt == "ndjson":
                assert all(isinstance(json.loads(row), dict) for row in out.splitlines()), (statement, out)
            else:
                header, *rows = out.splitlines()
                assert rows and "," in header or header in ("name", "message", "publicURL"), (statement, out)
                assert len(rows) >= 1, (statement, out)
    finally:
        client = service(project)
        try:
            client.empty_bucket(names["b"])
            client.delete_bucket(names["b"])
        except Exception:
            pass


def test_a_hostile_servers_keys_and_urls_are_shown_escaped(home, tmp_path):
    """What a server answers to a write or a sign is printed with its control characters escaped:
    an object key or a signed URL holding an escape sequence cannot retitle or clear a terminal."""
    from test_hostile_server import HostileServer, json_answer, snm_against
    evil = "dog\u001b]0;owned\u0007\u001b[2J.png"

    def answer(head):
        if "/object/sign/" in head:
            return json_answer(json.dumps({"signedURL": f"/object/sign/b/{evil}?token=t"}).encode())
        return json_answer(json.dumps({"Id": "1", "Key": f"b/{evil}"}).encode())

    server = HostileServer(answer)
    picture = tmp_path / "a.png"
    picture.write_bytes(PNG)
    try:
        result = snm_against(server, f"storage upload '{picture}' to b/a.png\nstorage sign b/a.png expires 60",
                             home)
        assert result.returncode == 0, result.stderr
        assert "\u001b" not in result.stdout and "\u0007" not in result.stdout
        lines = result.stdout.splitlines()
        assert lines[0].startswith(f"uploaded {picture} to b/dog\\u{{1B}}]0;owned\\u{{7}}\\u{{1B}}[2J.png")
        assert "/object/sign/b/dog\\u{1B}]0;owned" in lines[1]
    finally:
        server.stop()
