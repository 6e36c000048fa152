"""`snm gen swift` (issue 38): the file it writes from a local project's catalog compiles with
swiftc (Swift 6, complete strict concurrency) for a hostile schema (keywords, digits, collisions,
quotes, unicode, an enum named `public`, every type, views, composite types, functions) and for
the demo schema; a program built on it decodes the answers the project's REST API gives and
writes Insert and Update bodies the API takes; `--check` fails on drift; the OpenAPI document
gives a file that compiles and says what it cannot know."""
import json
import pathlib
import re
import shutil
import subprocess
import urllib.parse

import httpx
import pytest

from conftest import run_snm

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
SWIFTC = shutil.which("swiftc")

pytestmark = pytest.mark.skipif(SWIFTC is None, reason="swiftc is not installed")


@pytest.fixture(scope="module")
def gen_project(start_extra_project):
    project = start_extra_project("gen", "--migrations", str(FIXTURES / "gen_migrations"))
    project.sql("""
      insert into public."class" ("default", "self", "Type", "quote""d", "back\\slash", "café",
        visibility, feelings, big, small, real_number, double_number, amount, price, flag, born,
        at, local_at, clock, span, uid, doc, docb, bytes, tags, numbers, during, ints, home, homes,
        count, ip, grid, boxes)
      values ('x', 7, 'T', 'q"', 'b\\s', 'é', 'say "hi"', '{happy,sad}', 9007199254740993, -32768,
        'NaN', 'Infinity', 12345678901234567890.123456789012345678901, 12.50, true, '2024-02-29',
        '2024-05-01 12:30:00.123456+02:30', '2024-05-01 12:30:00', '13:14:15', '1 day 02:00:00',
        'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '[1, 2]', '{"n": 9007199254740993}',
        '\\x00ff10', '{"a,b", "c\\"d"}', '{9223372036854775807, NULL, -1}',
        '["2024-01-01 00:00:00+00","2024-01-02 00:00:00+00"]', '[1,5)',
        row('Main St', 90210, 'first'), array[row('a', 1, 'b')::public.address], 3, '10.0.0.1',
        '{{1,NULL,3},{4,5,NULL}}', '{{{1},{2}},{{NULL},{4}}}');
      insert into public."class" ("default", visibility, big) values ('x', '', -9223372036854775808);
      insert into public."Status" values (1, 'upper');
      insert into public.status values (1, 'lower');
      insert into other.things values (1, 'high', row('Side St', 1, null));
      refresh materialized view public.class_numbers;
    """)
    return project


def generate(project, out, *flags):
    return run_snm("gen", "swift", "--dir", project.data_dir, "--out", str(out), *flags, timeout=120)


def swiftc(*args, cwd):
    result = subprocess.run([SWIFTC, *args], capture_output=True, text=True, cwd=cwd, timeout=900)
    assert result.returncode == 0, result.stderr[-4000:]
    return result


@pytest.fixture(scope="module")
def program(gen_project, tmp_path_factory):
    """The generated file for the hostile schema and the program built on it."""
    folder = tmp_path_factory.mktemp("gen")
    result = generate(gen_project, folder / "Schema.swift", "--schema", "public,other")
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stderr and "5 functions" in result.stderr
    shutil.copy(FIXTURES / "gen_program" / "main.swift", folder / "main.swift")
    swiftc("-swift-version", "6", "-strict-concurrency=complete", "main.swift", "Schema.swift",
           "-o", "decode", cwd=folder)
    return folder


def run_program(folder, *args):
    result = subprocess.run([str(folder / "decode"), *args], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def get(project, path, schema="public", **params):
    response = httpx.get(
        project.rest_url + "/" + urllib.parse.quote(path),
        params={name: value for name, value in params.items() if value is not None}, headers={**project.headers(project.service_role_key),
                                "Accept-Profile": schema})
    assert response.status_code == 200, response.text
    return response.text


def test_the_hostile_schema_compiles_and_its_answers_decode(gen_project, program):
    selects = run_program(program, "selects")
    assert selects["columns"].startswith('id,default,self,Type,protocol,2fa,user_id,userId,init')
    assert selects["tables"] == "class,Status,status"
    answers = program / "answers"
    answers.mkdir(exist_ok=True)
    for name in ["class", "class_view", "class_summary", "class_numbers", "Status", "status",
                 "empty"]:
        (answers / f"{name}.json").write_text(
            get(gen_project, name, select=selects[name], order=None if name in (
                "empty", "class_summary") else "id"))
    # The local project's API exposes public only: other's rows as Postgres writes them to JSON.
    assert selects["things"] == "id,level,home"
    (answers / "things.json").write_text(gen_project.sql(
        "select json_agg(t) from (select id, level, home from other.things) t"))
    (answers / "pairs.json").write_text(get(gen_project, "rpc/pairs", n="3"))
    (answers / "add.json").write_text(get(gen_project, "rpc/add", a="2"))
    (answers / "big_one.json").write_text(get(gen_project, "rpc/big_one"))
    (answers / "where.json").write_text(get(gen_project, "rpc/where", select=selects["class"], order="id", **{"in": "x"}))
    decoded = run_program(program, "decode", str(answers))
    first, second = decoded["class"]
    assert first["big"] == "9007199254740993"  # beyond 2^53: a Double would give ...992
    assert first["amount"] == "12345678901234567890.123456789012345678901"  # 41 digits
    assert first["price"] == "12.50"
    assert first["at"] == "2024-05-01T10:00:00.123456Z"  # +02:30 read as an offset
    assert first["born"] == "2024-02-29T00:00:00.000000Z"
    assert first["local_at"] == "2024-05-01T12:30:00.000000Z"
    assert first["visibility"] == 'say "hi"'
    assert first["feelings"] == ["happy", "sad"]
    assert first["self"] == 7 and first["Type"] == "T" and first["café"] == "é"
    assert first['quote"d'] == 'q"' and first["back\\slash"] == "b\\s"
    assert first["small"] == -32768
    assert first["real_number"] == "NaN" and first["double_number"] == "Infinity"
    assert first["uid"] == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    assert first["docb.n"] == "9007199254740993" and first["doc.count"] == 2
    assert first["bytes"] == [0, 255, 16]
    assert first["tags"] == ["a,b", 'c"d']
    assert first["numbers"] == ["9223372036854775807", None, "-1"]  # NULL elements
    assert first["grid"] == [[1, None, 3], [4, 5, None]]  # int4[][]: two dimensions
    assert first["boxes"] == [[[1], [2]], [[None], [4]]]
    assert first["during.lower"] == "2024-01-01 00:00:00+00"
    assert first["during.upperInclusive"] is True
    assert first["ints"] == "[1,5)"
    assert first["home.zip"] == 90210 and first["home.class"] == "first"
    assert first["homes.count"] == 1 and first["count"] == 3 and first["ip"] == "10.0.0.1"
    assert first["twice"] == -65536 and first["clock"] == "13:14:15"
    assert second["visibility"] == "" and second["big"] == "-9223372036854775808"
    assert "amount" not in second and "at" not in second  # NULLs read as nil
    assert "grid" not in second and "numbers" not in second
    assert decoded["class_view"] == [
        ["12345678901234567890.123456789012345678901", "9007199254740993"],
        ["null", "-9223372036854775808"]]
    assert sorted(decoded["class_summary"]) == [["", "-9223372036854775808"],
                                                ['say "hi"', "9007199254740993"]]
    assert decoded["class_numbers"] == ["9007199254740993", "-9223372036854775808"]
    assert decoded["Status"] == ["upper"] and decoded["status"] == ["lower"]
    assert decoded["things"] == [["high", "Side St"]]
    assert decoded["pairs"] == [[1, 1], [2, 4], [3, 9]] and decoded["add"] == 3
    assert decoded["big_one"] == "9007199254740993"
    assert decoded["where"] == ["9007199254740993", "-9223372036854775808"]


def test_the_file_shows_no_invisible_or_direction_changing_characters(program):
    text = (program / "Schema.swift").read_text()
    hidden = [c for c in text if c in "\u00ad\u200b\u200c\u202a\u202b\u202c\u202d\u202e"
              "\u2066\u2067\u2068\u2069\ufeff\u2028\u2029\u2060\u200f"
              or (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
    assert hidden == []
    # A comment cannot seem to end its line and show code: its separators are written out.
    assert ('/// small\\u{2028}public let injected = 1 /* \\u{85}#warning("x") */ \\u{9b}31m'
            '\\u{2029}zero\\u{200b}width\\u{ad}soft\\u{2060}joiner\\u{200f}mark') in text
    assert 'case rtlOverride = "rtl\\u{202e}override"' in text
    assert 'case newLine = "new\\nline"' in text and 'case esc = "esc\\u{1b}"' in text
    assert 'case allCases2 = "allCases"' in text and 'case 🐶 = "🐶"' in text


def test_insert_and_update_bodies_round_trip_through_the_project(gen_project, program):
    bodies = run_program(program, "bodies")
    assert "id" not in bodies["insert"] and "twice" not in bodies["insert"]  # generated always
    headers = {**gen_project.headers(gen_project.service_role_key),
               "Prefer": "return=representation"}
    created = httpx.post(gen_project.rest_url + "/class", headers=headers,
                         json=bodies["insert"], params={"select": "id"})
    assert created.status_code == 201, created.text
    row_id = created.json()[0]["id"]
    stored = gen_project.sql(
        f"""select concat_ws('|', "default", big, visibility, amount, at at time zone 'UTC',
        born, encode(bytes, 'hex'), docb, ints, home, feelings, tags, "quote""d", "café", span,
        numbers, grid)
        from public."class" where id = {row_id}""")
    assert stored == ('from swift|9223372036854775807|say "hi"|'
                      '98765432109876543210.0123456789012345678901|2024-03-01 05:29:59.123456|'
                      '1999-12-31|00ff10|{"k": [null, true, "\\""]}|[3,7)|'
                      '("Main ""St""",12345,A)|{happy,sad}|{"a,b","c\\"d"}|q|☕|'
                      '{NULL,-9223372036854775808}|{{7,NULL},{NULL,8}}')
    assert bodies["update"] == {"span": None, "flag": True, "visibility": "default"}
    gen_project.sql(f"""update public."class" set span = '1 hour' where id = {row_id}""")
    changed = httpx.patch(gen_project.rest_url + "/class", headers=headers,
                          json=bodies["update"], params={"id": f"eq.{row_id}", "select": "id"})
    assert changed.status_code == 200, changed.text
    assert gen_project.sql(
        f"""select concat_ws('|', coalesce(span::text, 'NULL'), flag, visibility)
        from public."class" where id = {row_id}""") == "NULL|t|default"
    added = httpx.post(gen_project.rest_url + "/rpc/add", headers=headers, json=bodies["args"])
    assert added.status_code == 200 and added.json() == 42


def test_check_passes_on_the_file_it_wrote_and_fails_after_a_migration(gen_project, tmp_path):
    out = tmp_path / "Schema.swift"
    assert generate(gen_project, out).returncode == 0
    checked = generate(gen_project, out, "--check")
    assert checked.returncode == 0, checked.stderr
    assert "is up to date" in checked.stdout
    gen_project.sql("create table public.added_later (id int4 primary key, note text)")
    try:
        drifted = generate(gen_project, out, "--check")
        assert drifted.returncode == 1, drifted.stderr
        assert "differs from what the schema gives, first at line" in drifted.stderr
        assert "enum AddedLater" in drifted.stderr
    finally:
        gen_project.sql("drop table public.added_later")
    assert generate(gen_project, out, "--check").returncode == 0


def test_a_check_names_its_file_with_hidden_characters_escaped(gen_project, tmp_path):
    # 'FILE is up to date' printed the path as given: a name holding ESC [2J cleared the
    # terminal (the line that differs, and 'wrote FILE', escaped it already).
    out = tmp_path / "Schema\x1b[2J.swift"
    assert generate(gen_project, out).returncode == 0
    checked = generate(gen_project, out, "--check")
    assert (checked.returncode, checked.stdout) == (
        0, f"{tmp_path}/Schema\\u{{1B}}[2J.swift is up to date\n"), checked.stderr


DEMO_TABLE = re.compile(
    r'^  (?:public )?enum (\w+) \{\n    (?:public )?static let schemaName = "public"\n'
    r'    (?:public )?static let tableName = "(\w+)"', re.M)


def test_the_demo_schema_compiles_and_every_table_and_view_decodes(project, tmp_path):
    out = tmp_path / "Demo.swift"
    result = generate(project, out, "--access", "public")
    assert result.returncode == 0, result.stderr
    swiftc("-swift-version", "6", "-strict-concurrency=complete", "-parse-as-library",
           "-emit-module", "-module-name", "Demo", "Demo.swift", cwd=tmp_path)
    tables = DEMO_TABLE.findall(out.read_text())
    assert len(tables) >= 4, tables
    # A program that prints each table's select list, then decodes the answers fetched with it.
    lines = ["import Foundation", "let folder = CommandLine.arguments.dropFirst().first",
             "let decoder = PostgRESTCoding.decoder()"]
    for swift_name, table in tables:
        lines += [
            f"if let folder {{",
            f'  let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/{table}.json"))',
            f"  let rows = try decoder.decode([PublicSchema.{swift_name}.Select].self, from: data)",
            f'  print("{table}", rows.count)',
            f"}} else {{",
            f'  print("{table}", PublicSchema.{swift_name}.Select.selectString)',
            f"}}"]
    (tmp_path / "main.swift").write_text("\n".join(lines) + "\n")
    swiftc("-swift-version", "6", "main.swift", "Demo.swift", "-o", "demo", cwd=tmp_path)
    selects = subprocess.run([str(tmp_path / "demo")], capture_output=True, text=True, timeout=60)
    assert selects.returncode == 0, selects.stderr
    expected = {}
    for line in selects.stdout.splitlines():
        table, select = line.split(" ", 1)
        rows = get(project, table, select=select)
        (tmp_path / f"{table}.json").write_text(rows)
        expected[table] = len(json.loads(rows))
    decoded = subprocess.run([str(tmp_path / "demo"), str(tmp_path)], capture_output=True,
                             text=True, timeout=60)
    assert decoded.returncode == 0, decoded.stderr
    counts = {table: int(count) for table, count in
              (line.split(" ") for line in decoded.stdout.splitlines())}
    assert counts == expected and sum(counts.values()) > 0


def test_the_openapi_document_gives_a_file_that_compiles_and_says_what_it_cannot_know(
        gen_project, tmp_path):
    out = tmp_path / "Remote.swift"
    result = run_snm("gen", "swift", "--url", gen_project.url, "--key",
                     gen_project.status["publishable_key"], "--service-key",
                     gen_project.status["secret_key"], "--out", str(out), timeout=120)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert "the service key's view" in text.splitlines()[0]
    assert "no composite types" in text and "case sayHi = \"say \\\"hi\\\"\"" in text
    assert "public typealias Returns = JSONValue" not in text  # internal by default
    assert "typealias Returns = JSONValue" in text
    swiftc("-swift-version", "6", "-strict-concurrency=complete", "-typecheck", "Remote.swift",
           cwd=tmp_path)
    anon = run_snm("gen", "swift", "--url", gen_project.url, "--key",
                   gen_project.status["publishable_key"], timeout=120)
    assert anon.returncode == 0, anon.stderr
    assert "Read with the project key, not the service key" in anon.stdout


def test_under_ci_a_project_must_be_named(tmp_path):
    clean = {name: "" for name in ("SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY",
                                   "SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_ROLE_KEY")}
    result = run_snm("gen", "swift", "--out", str(tmp_path / "S.swift"), "--check",
                     env={**clean, "CI": "true", "XDG_DATA_HOME": str(tmp_path / "data")})
    assert result.returncode == 2, result.stderr
    assert "no project named, and CI is set (CI=true)" in result.stderr
    assert not (tmp_path / "data").exists()  # no local project was started


def test_mistakes_are_refused_with_the_reason(gen_project, tmp_path):
    unknown = run_snm("gen", "swift", "--dir", gen_project.data_dir, "--schema", "pubilc")
    assert unknown.returncode == 1
    assert "schema 'pubilc' has no tables, views, types or functions" in unknown.stderr
    assert run_snm("gen", "kotlin").returncode == 2
    assert run_snm("gen", "swift", "--check").returncode == 2
    assert run_snm("gen", "swift", "--access", "open").returncode == 2
    hidden = run_snm("gen", "swift", "--url", gen_project.url, "--key",
                     gen_project.status["publishable_key"], "--schema", "other")
    assert hidden.returncode == 3
    assert "did not give its OpenAPI document for schema 'other' (406)" in hidden.stderr


EXPLAINED = ("from class select id, big where user_id eq 3 and \"userId\" neq 4 and big gt 5 "
             "and \"default\" like 'x*' order by \"userId\" desc, id limit 5 offset 10")


def test_explain_writes_a_supabase_swift_chain_with_the_generated_names(program):
    """With SNM_GEN_SWIFT naming the file, `explain` adds the supabase-swift chain naming the
    table and columns by the file's types; each name it uses, compiled with the file, is the
    table or column it stands for."""
    env = {"SNM_GEN_SWIFT": str(program / "Schema.swift")}
    text = run_snm("explain", EXPLAINED, env=env)
    assert text.returncode == 0, text.stderr
    chain = text.stdout.split("\nsupabase ", 1)[1].splitlines()
    cls = "PublicSchema.Class"
    assert [line.strip() for line in chain] == [
        f"try await supabase.from({cls}.tableName)",
        '.select("id,big")',
        f'.eq({cls}.Columns.userId.rawValue, value: "3")',
        f'.filter({cls}.Columns.userId2.rawValue, operator: "neq", value: "4")',
        f'.filter({cls}.Columns.big.rawValue, operator: "gt", value: "5")',
        f'.filter({cls}.Columns.`default`.rawValue, operator: "like", value: "x*")',
        f"{'.order('}{cls}.Columns.userId2.rawValue, ascending: false)",
        f"{'.order('}{cls}.Columns.id.rawValue)",
        ".range(from: 10, to: 14)",
        ".execute()"]
    names = sorted(set(re.findall(r"PublicSchema\.Class\.(?:tableName|Columns\.[`\w]+\.rawValue)",
                                  text.stdout)))
    (program / "names").mkdir(exist_ok=True)
    shutil.copy(program / "Schema.swift", program / "names" / "Schema.swift")
    (program / "names" / "main.swift").write_text(
        "".join(f"print({name})\n" for name in names))
    swiftc("-swift-version", "6", "main.swift", "Schema.swift", "-o", "names", cwd=program / "names")
    printed = subprocess.run([str(program / "names" / "names")], capture_output=True, text=True,
                             timeout=60).stdout.splitlines()
    assert dict(zip(names, printed)) == {
        f"{cls}.tableName": "class", f"{cls}.Columns.userId.rawValue": "user_id",
        f"{cls}.Columns.userId2.rawValue": "userId", f"{cls}.Columns.big.rawValue": "big",
        f"{cls}.Columns.`default`.rawValue": "default", f"{cls}.Columns.id.rawValue": "id"}
    as_json = json.loads(run_snm("explain", "--json", "from class delete where id eq 3",
                                 env=env).stdout)
    assert as_json["supabase_swift"].splitlines() == [
        f"try await supabase.from({cls}.tableName)", "  .delete(returning: .minimal, count: .exact)",
        f'  .eq({cls}.Columns.id.rawValue, value: "3")', "  .execute()"]


def test_explain_without_the_file_or_with_a_table_it_lacks_says_so(program, tmp_path):
    plain = run_snm("explain", "from class select id")
    assert plain.returncode == 0 and "supabase " not in plain.stdout  # no file named: as before
    missing = run_snm("explain", "from class select id",
                      env={"SNM_GEN_SWIFT": str(tmp_path / "nowhere.swift")})
    assert missing.returncode == 0, missing.stderr
    assert f'supabase // SNM_GEN_SWIFT names "{tmp_path}/nowhere.swift", which cannot be read' \
        in missing.stdout
    other = run_snm("explain", "from added_later select id",
                    env={"SNM_GEN_SWIFT": str(program / "Schema.swift")})
    assert 'supabase try await supabase.from("added_later")' in other.stdout
    assert '// "added_later" is not in the generated file: generate it again' in other.stdout


# Trojan Source (CVE-2021-42574) with the characters a terminal escapes by what they follow: a
# run of variation selectors (a hidden byte each), one after an ASCII letter. A comment, a table's
# or a column's name and an enum's label come from the database (another person's text): the
# file shows each as \u{..} in literals and comments, and a name splits at them as at a space.
SMUGGLED_TABLE = "ok\U000E0162\U000E015Dx"
SMUGGLED_COLUMN = "a\ufe0f\ufe0fb"
SMUGGLED_COMMENT = "safe\ufe00\ufe01\ufe02 \U000E0100\U000E0101 done \u2764\ufe0f"


def test_a_run_of_variation_selectors_is_never_raw_in_the_file(gen_project, tmp_path):
    gen_project.sql(f"""
      create schema if not exists smuggled;
      create type smuggled.mood as enum ('on\ufe0f\ufe0f', 'off');
      create table if not exists smuggled."{SMUGGLED_TABLE}" (
        id int primary key, "{SMUGGLED_COLUMN}" text, mood smuggled.mood, "café" text,
        "café\ufe0f" text);
      comment on table smuggled."{SMUGGLED_TABLE}" is '{SMUGGLED_COMMENT}';
      comment on column smuggled."{SMUGGLED_TABLE}"."{SMUGGLED_COLUMN}" is '{SMUGGLED_COMMENT}';
    """)
    try:
        out = tmp_path / "Smuggled.swift"
        result = generate(gen_project, out, "--schema", "smuggled")
        assert result.returncode == 0, result.stderr
        text = out.read_text()
    finally:
        gen_project.sql("drop schema smuggled cascade")
    selector = "[\ufe00-\ufe0f\U000E0100-\U000E01EF]"
    assert re.findall(f"[ -~]{selector}|{selector}{selector}", text) == [], text
    shown = "safe\\u{fe00}\\u{fe01}\\u{fe02} \\u{e0100}\\u{e0101} done \u2764\ufe0f"
    assert "/// " + shown + "\n" in text and text.count(shown) >= 2, text
    assert 'static let tableName = "ok\\u{e0162}\\u{e015d}x"' in text, text
    assert 'case aB = "a\\u{fe0f}\\u{fe0f}b"' in text, text
    assert 'case on = "on\\u{fe0f}\\u{fe0f}"' in text, text
    # A selector after a letter shows nothing: "café" U+FE0F is a name of its own, escaped.
    assert "é\ufe0f" not in text and 'case café2 = "café\\u{fe0f}"' in text, text
    assert "enum OkX" in text, text
    subprocess.run([SWIFTC, "-parse", str(out)], check=True, capture_output=True, timeout=120)
