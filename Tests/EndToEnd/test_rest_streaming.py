"""Streamed answers (issue 18): a read of more than 1,000 rows goes out as Postgres produces the
rows, with chunked transfer encoding, and its body is byte for byte what the whole answer was (the
json_agg and CSV text PostgREST sends); its Content-Range and count=exact total are the same (counted
in the snapshot the rows come from, before the first row), an error in a row of the first batch still
comes as PostgREST's error, an error in a later row cuts the answer (no last chunk: a client sees it
cut, never short), a single-object answer stays whole, the official postgrest client reads it, and
clients that hang up mid-answer do not keep the pool's connections."""
import socket
import time

import httpx
import postgrest
import pytest

from conftest import run_snm
from hardening import wait_for_all_rows, wait_for_answer

ROWS = 3000


@pytest.fixture(scope="module")
def big(start_extra_project):
    project = start_extra_project("streaming")
    project.sql(
        "insert into dog_profile (owner, name, breed, age, traits) "
        "select '0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b', "
        "case when g % 10 = 0 then '두부 ' || g || ' 🐕' else 'dog \"' || g || '\", x' end, "
        f"case when g % 2 = 0 then null else 'Jindo' end, g % 15, '{{\"a\": [1, 2]}}'::jsonb "
        f"from generate_series(1, {ROWS - 4}) g; "  # the seed has 4
        "create view public.fragile as select id, 1 / (id - 500) as x from public.dog_profile; "
        "grant select on public.fragile to anon, authenticated, service_role; "
        # A computed column whose cast fails on row 2,800, in the third batch; Postgres calls it
        # after the sort and limit, row by row.
        "create function public.checked(public.dog_profile) returns int language plpgsql stable "
        "as $$ begin return case when $1.id = 2800 then cast('row ' || $1.id as int) else 1 end; "
        "end $$; "
        "alter role authenticator set pgrst.db_max_rows = '1000000'; "
        "notify pgrst, 'reload schema'")
    wait_for_all_rows(project, "dog_profile")
    return project


def whole_json(project, columns, strip=False):
    row = "json_strip_nulls(row_to_json(t))" if strip else "t"
    return project.sql(
        f"select coalesce(json_agg({row}), '[]') from (select {columns} from dog_profile "
        "order by id) t")


def test_a_big_read_streams_the_bytes_of_the_whole_answer(big):
    headers = big.headers(big.service_role_key)
    with httpx.stream("GET", f"{big.rest_url}/dog_profile?select=*&order=id",
                      headers=headers) as answer:
        assert answer.status_code == 200
        assert answer.headers["transfer-encoding"] == "chunked"
        assert "content-length" not in answer.headers
        assert answer.headers["content-range"] == f"0-{ROWS - 1}/*"
        body = answer.read().decode()
    assert body == whole_json(big, "*")
    stripped = httpx.get(
        f"{big.rest_url}/dog_profile?select=id,name,breed&order=id",
        headers={**headers, "Accept": "application/vnd.pgrst.array+json;nulls=stripped"})
    assert stripped.text == whole_json(big, "id,name,breed", strip=True)
    counted = httpx.get(f"{big.rest_url}/dog_profile?select=id&order=id&offset=10",
                        headers={**headers, "Prefer": "count=exact"})
    assert counted.status_code == 206
    assert counted.headers["content-range"] == f"10-{ROWS - 1}/{ROWS}"
    assert len(counted.json()) == ROWS - 10
    small = httpx.get(f"{big.rest_url}/dog_profile?select=id&order=id&limit=1000",
                      headers=headers)
    assert small.headers["content-length"] == str(len(small.content)), "a page of 1,000 is whole"
    past = httpx.get(f"{big.rest_url}/dog_profile?select=id&offset=100000",
                     headers={**headers, "Prefer": "count=exact"})
    assert past.status_code == 416
    assert past.headers["content-range"] == f"*/{ROWS}"
    assert past.json()["code"] == "PGRST103"


def test_csv_streams_with_its_header_line(big):
    headers = {**big.headers(big.service_role_key), "Accept": "text/csv"}
    answer = httpx.get(f"{big.rest_url}/dog_profile?select=id,name,breed,traits&order=id",
                       headers=headers)
    assert answer.headers["transfer-encoding"] == "chunked"
    expected = big.sql(
        "with s as (select id, name, breed, traits from dog_profile order by id) "
        "select 'id,name,breed,traits' || chr(10) || "
        "string_agg(substring(t::text, 2, length(t::text) - 2), chr(10)) from s t")
    assert answer.text == expected
    empty = httpx.get(f"{big.rest_url}/dog_profile?select=id&id=lt.0&limit=5000", headers=headers)
    assert empty.text == "\n"


def test_an_error_in_the_first_batch_is_postgrests_error(big):
    answer = httpx.get(f"{big.rest_url}/fragile?select=*&order=id",
                       headers=big.headers(big.service_role_key))
    assert answer.status_code == 400
    assert answer.json()["code"] == "22012"
    assert answer.headers["content-length"] == str(len(answer.content))


def raw_answer(project, path, accept="application/json"):
    """The bytes of an answer as they came, until the server closed the connection."""
    request = (f"GET /rest/v1/{path} HTTP/1.1\r\nHost: x\r\napikey: {project.service_role_key}\r\n"
               f"Accept: {accept}\r\nConnection: close\r\n\r\n").encode()
    received = b""
    with socket.create_connection(("127.0.0.1", project.port), timeout=20) as connection:
        connection.sendall(request)
        while chunk := connection.recv(1 << 16):
            received += chunk
    return received


@pytest.mark.parametrize("path, accept", [
    ("dog_profile?select=id,checked&order=id", "application/json"),
    ("dog_profile?select=id,checked&order=id", "text/csv"),
])
def test_an_error_in_a_later_row_cuts_the_answer(big, path, accept):
    received = raw_answer(big, path, accept)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK"), head
    assert b"transfer-encoding: chunked" in head.lower()
    assert not body.endswith(b"0\r\n\r\n"), "the cut answer must not end with the last chunk"
    assert len(body) > 1000 * 5, "the first batch was sent"
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.get(f"{big.rest_url}/{path}",
                  headers={**big.headers(big.service_role_key), "Accept": accept})


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("columns", ["id, checked", "*, checked"])
def test_snm_fails_a_cut_answer(big, home, fmt, columns):
    """With every column, the 2,799 rows before the cut are 600 KB: snm has rendered most of them
    as csv when the cut comes, and shows none."""
    result = run_snm("--url", big.url, "--key", big.service_role_key, "--format", fmt,
                     "-c", f"from dog_profile select {columns} order by id", env=home)
    assert result.returncode == 3, result.stdout[-300:]
    assert result.stdout == "", "rows of a cut answer were printed"
    assert "the answer was cut off" in result.stderr, result.stderr[-300:]


def test_single_objects_stay_whole(big):
    answer = httpx.get(f"{big.rest_url}/dog_profile?select=id&order=id",
                       headers={**big.headers(big.service_role_key),
                                "Accept": "application/vnd.pgrst.object+json"})
    assert answer.status_code == 406
    assert answer.json()["code"] == "PGRST116"


def test_the_official_client_reads_a_streamed_answer(big):
    client = postgrest.SyncPostgrestClient(big.rest_url, headers=big.headers(big.service_role_key))
    rows = client.from_("dog_profile").select("id, name", count="exact").order("id").execute()
    assert rows.count == ROWS
    assert len(rows.data) == ROWS
    assert rows.data[0]["id"] < rows.data[-1]["id"]


def test_clients_hanging_up_mid_answer_give_their_connections_back(big):
    request = (f"GET /rest/v1/dog_profile?select=*&order=id HTTP/1.1\r\nHost: x\r\n"
               f"apikey: {big.service_role_key}\r\n\r\n").encode()
    for _ in range(30):  # more than the pool's 20 connections
        with socket.create_connection(("127.0.0.1", big.port), timeout=10) as connection:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            connection.sendall(request)
            assert connection.recv(4096).startswith(b"HTTP/1.1 200 OK")
    answer = httpx.get(f"{big.rest_url}/dog_profile?select=id&limit=1",
                       headers=big.headers(big.service_role_key), timeout=20)
    assert answer.status_code == 200
    deadline = time.time() + 10
    while True:
        busy = int(big.sql("select count(*) from pg_stat_activity "
                           "where usename = 'authenticator' and state <> 'idle'"))
        if busy == 0 or time.time() > deadline:
            break
        time.sleep(0.2)
    assert busy == 0, f"{busy} backends still busy with abandoned answers"


TYPED_ROWS = 1500


@pytest.fixture(scope="module")
def typed(big):
    """A table of every type the gateway writes as JSON itself, with their edge values (NaN and
    the infinities, BC dates, zone offsets of whole hours, minutes and seconds, escapes), beside
    one the gateway leaves to Postgres (an array and an enum) and a role whose DateStyle is not
    ISO."""
    big.sql(
        "create type public.mood as enum ('calm', 'wild'); "
        "create table public.typed (id int primary key, i2 smallint, i8 bigint, f4 real, "
        "f8 double precision, n numeric, b boolean, t text, vc varchar(10), bp char(3), nm name, "
        "ch \"char\", u uuid, o oid, by bytea, tm time, ttz timetz, iv interval, ip inet, cd cidr, "
        "mac macaddr, m money, j json, jb jsonb, d date, ts timestamp, tstz timestamptz, "
        "\"we\"\"ird\" int); "
        "insert into public.typed select g, (g % 300)::smallint - 150, g * 1000000007::bigint, g / 3.0, "
        "case g % 6 when 0 then 'NaN' when 1 then 'Infinity' when 2 then '-Infinity' "
        "when 3 then 1e300 * g when 4 then '-0' else g / 7.0 end, "
        "case g % 5 when 0 then 'NaN'::numeric when 1 then 12.500 when 2 then -0.001 * g "
        "when 3 then 'Infinity' else null end, "
        "case g % 3 when 0 then true when 1 then false end, "
        "case g % 6 when 0 then 'a\"b\\c' || chr(1) || chr(10) || chr(9) || chr(8) || chr(12) "
        "|| chr(13) || chr(31) || chr(127) when 1 then '두부 🐕' when 2 then '' when 3 then null "
        "else 'x' || g end, 'v' || g % 10, 'ab', 'n' || g, 'q', gen_random_uuid(), g, "
        "decode(md5(g::text), 'hex'), time '10:00' + g * interval '1 second', "
        "timetz '10:00+03', g * interval '1 hour 1 second', '10.0.0.1/8', '10.0.0.0/8', "
        "'08:00:2b:01:02:03', g * 1.25, "
        "'{\"b\": 1,  \"a\":[1, 2]}', '{\"b\": 1,  \"a\":[1, \"\\u00e9\"]}', "
        "case g % 4 when 0 then 'infinity'::date when 1 then '-infinity' "
        "when 2 then '0044-03-15 BC' else date '2020-01-01' + g end, "
        "case g % 3 when 0 then 'infinity'::timestamp when 1 then '0044-03-15 10:00 BC' "
        "else timestamp '2024-01-01 10:00:00.5' + g * interval '1 minute' end, "
        "case g % 5 when 0 then 'infinity'::timestamptz when 1 then '0044-03-15 10:00+00 BC' "
        "when 2 then '1850-01-01 00:00+00' when 3 then '2024-06-01 12:34:56.789+05:30' "
        "else timestamptz '2024-01-01 00:00+00' + g * interval '1 hour' end, g "
        f"from generate_series(1, {TYPED_ROWS}) g; "
        "create domain public.posint as int check (value > 0); "
        "create domain public.tagset as text[]; "
        "create domain public.moodish as public.mood; "
        "create domain public.stamp as timestamptz; "
        "create table public.typed_more (id int primary key, tags text[], mood public.mood, "
        "moods public.mood[], n public.posint, ns public.posint[], ts public.tagset, "
        "m public.moodish, at public.stamp); "
        "insert into public.typed_more select g, array['a', 'b\"' || g], "
        "case when g % 2 = 0 then 'calm' end::public.mood, array['calm', null, 'wild']"
        "::public.mood[], g, array[g, g + 1]::public.posint[], array['x y', null]::public.tagset, "
        "'wild', '2024-01-01 10:00+00' "
        f"from generate_series(1, {TYPED_ROWS}) g; "
        # Left to Postgres: an enum with a function cast to json, a composite.
        "create type public.tone as enum ('low', 'high'); "
        "create function public.tone_json(public.tone) returns json language sql immutable "
        "as $$ select json_build_object('tone', $1::text) $$; "
        "create cast (public.tone as json) with function public.tone_json(public.tone); "
        "create type public.pair as (a int, b text); "
        "create table public.typed_odd (id int primary key, tone public.tone, pair public.pair); "
        "insert into public.typed_odd select g, 'high', row(g, 'b')::public.pair "
        f"from generate_series(1, {TYPED_ROWS}) g; "
        "create table public.typed_cast (id int primary key, tone public.tone); "
        "insert into public.typed_cast select g, 'low' "
        f"from generate_series(1, {TYPED_ROWS}) g; "
        "create table public.typed_arrays (id int primary key, ints int[], texts text[], "
        "nums numeric[], f8s float8[], bools bool[], js json[], jbs jsonb[], bys bytea[], "
        "ds date[], tss timestamp[], tstzs timestamptz[], grid int[][]); "
        "insert into public.typed_arrays select g, "
        "case g % 4 when 0 then '{}' when 1 then '[0:1]={1,2}' when 2 then array[g, null, -g] "
        "end::int[], "
        "case g % 3 when 0 then array['NULL', null, '', 'a b', 'q\"u', 'b\\s', '{x}', 'c,d', "
        "'두부', 'tab' || chr(9)] when 1 then array[]::text[] else array['x' || g] end, "
        "array['NaN', '12.50', '-Infinity']::numeric[], array['NaN', '-0', '1e300']::float8[], "
        "array[true, false, null], array['{\"a\": [1, \"x\"]}', 'null']::json[], "
        "array['{\"b\": 1, \"a\": \"\\\"\"}']::jsonb[], array['\\x00ff']::bytea[], "
        "array['infinity', '0044-03-15 BC', '2024-01-01']::date[], "
        "array['2024-01-01 10:00:00.5', '-infinity']::timestamp[], "
        "array['2024-01-01 10:00+00', '2024-06-01 12:34:56+05:30', '0044-03-15 10:00+00 BC']"
        "::timestamptz[], case when g % 2 = 0 then '{{1,2},{3,NULL}}'::int[] end "
        f"from generate_series(1, {TYPED_ROWS}) g; "
        "grant select on public.typed, public.typed_more, public.typed_arrays, public.typed_odd, "
        "public.typed_cast to anon, service_role; "
        "alter role anon set datestyle = 'SQL, DMY'; "
        "notify pgrst, 'reload schema'")
    wait_for_answer(big, "typed_cast?select=id&limit=1", lambda answer: answer.status_code == 200)
    return big


@pytest.mark.parametrize("table, zone", [
    ("typed", None), ("typed", "Asia/Kolkata"), ("typed_more", None), ("typed_arrays", None),
    ("typed_arrays", "America/St_Johns"), ("typed_odd", None), ("typed_cast", None)])
def test_a_streamed_read_of_every_type_is_row_to_json_byte_for_byte(typed, table, zone):
    headers = typed.headers(typed.service_role_key)
    if zone:
        headers["Prefer"] = f"timezone={zone}"
    with httpx.stream("GET", f"{typed.rest_url}/{table}?select=*&order=id",
                      headers=headers) as answer:
        assert answer.status_code == 200
        assert answer.headers["transfer-encoding"] == "chunked"
        body = answer.read().decode()
    setting = f"set timezone = '{zone}'; " if zone else ""
    expected = typed.sql(
        f"{setting}select coalesce(json_agg(r), '[]') from (select * from {table} order by id) r")
    assert body == expected.removeprefix("SET\n")


def test_a_streamed_read_under_another_datestyle_is_row_to_json(typed):
    answer = httpx.get(f"{typed.rest_url}/typed?select=id,d,ts,tstz&order=id",
                       headers=typed.headers(typed.anon_key))
    assert answer.status_code == 200
    assert answer.headers["transfer-encoding"] == "chunked"
    expected = typed.sql(
        "set datestyle = 'SQL, DMY'; select coalesce(json_agg(r), '[]') from "
        "(select id, d, ts, tstz from typed order by id) r")
    assert answer.text == expected.removeprefix("SET\n")
    # row_to_json writes ISO dates whatever the DateStyle; the columns' text would be SQL style.
    assert '"d":"0044-03-15 BC"' in answer.text
    assert typed.sql("set datestyle = 'SQL, DMY'; select d::text from typed where id = 2") \
        == "SET\n15/03/0044 BC"


@pytest.mark.parametrize("table, zone", [
    ("typed", None), ("typed", "Asia/Kolkata"), ("typed_more", None), ("typed_arrays", None),
    ("typed_arrays", "America/St_Johns"), ("typed_odd", None), ("typed_cast", None)])
def test_a_small_read_of_every_type_is_json_agg_byte_for_byte(typed, table, zone):
    """A read of at most 1,000 rows is written by the gateway from the rows' columns (or by
    Postgres for the types it cannot write): the bytes are json_agg's, its single object
    row_to_json's."""
    headers = typed.headers(typed.service_role_key)
    if zone:
        headers["Prefer"] = f"timezone={zone}"
    setting = f"set timezone = '{zone}'; " if zone else ""
    for _ in range(2):  # the second time from what the first taught the gateway
        answer = httpx.get(f"{typed.rest_url}/{table}?select=*&order=id&limit=1000&offset=400",
                           headers=headers)
        assert answer.status_code == 200
        assert "content-length" in answer.headers
        expected = typed.sql(f"{setting}select coalesce(json_agg(r), '[]') from "
                             f"(select * from {table} order by id limit 1000 offset 400) r")
        assert answer.text == expected.removeprefix("SET\n")
    for row in (1, 2, 3, 4, 5, 6, 12, 30):
        one = httpx.get(f"{typed.rest_url}/{table}?select=*&id=eq.{row}",
                        headers={**headers, "Accept": "application/vnd.pgrst.object+json"})
        assert one.status_code == 200
        expected = typed.sql(
            f"{setting}select row_to_json(r) from (select * from {table} where id = {row}) r")
        assert one.text == expected.removeprefix("SET\n")


def test_a_small_read_under_another_datestyle_is_json_agg(typed):
    """anon's DateStyle is SQL: its dates are still ISO in JSON (Postgres writes those rows),
    its other columns the gateway writes."""
    for columns in ("id,d,ts,tstz", "id,t,n,f8,tm,iv"):
        answer = httpx.get(f"{typed.rest_url}/typed?select={columns}&order=id&limit=60",
                           headers=typed.headers(typed.anon_key))
        assert answer.status_code == 200
        expected = typed.sql(
            "set datestyle = 'SQL, DMY'; select coalesce(json_agg(r), '[]') from "
            f"(select {columns} from typed order by id limit 60) r")
        assert answer.text == expected.removeprefix("SET\n")


def test_a_streamed_read_with_embeds_is_its_pages_joined(big):
    headers = big.headers(big.service_role_key)
    select = "select=id,name,owner:user_info(id,name),walk_request(id)&order=id"
    streamed = httpx.get(f"{big.rest_url}/dog_profile?{select}", headers=headers)
    assert streamed.headers["transfer-encoding"] == "chunked"
    pages = [httpx.get(f"{big.rest_url}/dog_profile?{select}&limit=1000&offset={offset}",
                       headers=headers) for offset in range(0, ROWS, 1000)]
    assert all("content-length" in page.headers for page in pages)
    assert streamed.text == "[" + ", \n ".join(page.text[1:-1] for page in pages) + "]"
