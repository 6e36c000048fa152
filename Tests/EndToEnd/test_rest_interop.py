"""The official `postgrest` Python client against snm's REST gateway: each operator family,
embedding, ordering, ranges with counts, single rows, writes and rpc, asserting rows and statuses."""
import pytest
from postgrest.exceptions import APIError

from rest_helpers import EMILE, KIM, LEE, PARK, client, http, service


def names(response):
    return [row["name"] for row in response.data]


def test_comparison_and_pattern_filters(rest_project):
    people = client(rest_project).from_("people")
    assert names(people.select("name").gte("age", 30).order("name").execute()) == ["Kim", "Émile 🐶"]
    assert names(people.select("name").lt("age", 20).execute()) == ["Lee"]
    assert names(people.select("name").neq("name", "Kim").gt("age", 20).execute()) == ["Émile 🐶"]
    assert names(people.select("name").lte("age", 12).execute()) == ["Lee"]
    assert names(people.select("name").eq("id", KIM).execute()) == ["Kim"]
    assert names(people.select("name").like("name", "%mi%").execute()) == ["Émile 🐶"]
    assert names(people.select("name").ilike("name", "k*").execute()) == ["Kim"]
    assert names(people.select("name").filter("name", "match", "^L").execute()) == ["Lee"]
    assert names(people.select("name").filter("name", "imatch", "^l").execute()) == ["Lee"]
    assert names(people.select("name").like_any_of("name", "K*,L*").order("name").execute()) == ["Kim", "Lee"]
    assert names(people.select("name").not_.eq("name", "Kim").order("name").execute()) == ["Lee", "Émile 🐶", "박지성"]
    assert names(people.select("name").eq("name", "박지성").execute()) == ["박지성"]
    assert names(people.select("name").eq("status", "null").execute()) == ["박지성"]


def test_is_in_and_containment_filters(rest_project):
    people = client(rest_project).from_("people")
    assert names(people.select("name").is_("age", "null").execute()) == ["박지성"]
    assert names(people.select("name").not_.is_("age", "null").order("name").execute()) == ["Kim", "Lee", "Émile 🐶"]
    assert names(people.select("name").in_("id", [KIM, LEE]).order("name").execute()) == ["Kim", "Lee"]
    assert names(people.select("name").in_("name", []).execute()) == []
    assert names(people.select("name").cs("tags", ["a"]).order("name").execute()) == ["Kim"]
    assert names(people.select("name").contains("tags", ["a,b"]).execute()) == ["Émile 🐶"]
    assert names(people.select("name").cd("tags", ["a", "b"]).order("name").execute()) == ["Kim", "Lee", "박지성"]
    assert names(people.select("name").ov("tags", ["c", "b"]).order("name").execute()) == ["Kim", "Lee", "Émile 🐶"]
    assert names(people.select("name").contains("data", {"blood": "B"}).execute()) == ["Lee"]
    assert names(people.select("name").eq("data->>blood", "A").execute()) == ["Kim"]


def test_range_and_text_search_filters(rest_project):
    docs = client(rest_project).from_("docs")

    def ids(query):
        return [row["id"] for row in query.execute().data]

    # The client sends ranges as `(a,b)` (exclusive bounds): (6,8) is [7,8), (1,9) is [2,9).
    assert ids(docs.select("id").range_lt("span", (6, 8))) == [1]
    assert ids(docs.select("id").range_gt("span", (6, 8))) == [2]
    assert ids(docs.select("id").range_lte("span", (1, 9))) == [1]
    assert ids(docs.select("id").range_gte("span", (2, 4))) == [2]
    assert ids(docs.select("id").range_adjacent("span", (4, 7))) == [1]
    assert ids(docs.select("id").ov("span", "[4,11)").order("id")) == [1, 2]
    assert ids(docs.select("id").contains("span", "[2,3]")) == [1]
    assert ids(docs.select("id").fts("search", "cat")) == [1]
    assert ids(docs.select("id").plfts("search", "fat cat")) == [1]
    assert ids(docs.select("id").phfts("search", "quick fox")) == [2]
    assert ids(docs.select("id").wfts("search", "fox -cat")) == [2]
    assert ids(docs.select("id").text_search("body", "sat", {"config": "english"})) == [1]


def test_or_and_trees(rest_project):
    people = client(rest_project).from_("people")
    assert names(people.select("name").or_("age.lt.18,age.gt.40").order("name").execute()) == ["Lee", "Émile 🐶"]
    assert names(people.select("name").or_("and(age.gte.18,status.eq.active),name.eq.Lee").order("name").execute()) == [
        "Kim", "Lee", "Émile 🐶"]
    response = http(rest_project, "GET", "/people?select=name&not.or=(age.lt.18,age.is.null)&order=name")
    assert response.status_code == 200 and [r["name"] for r in response.json()] == ["Kim", "Émile 🐶"]


def test_embedding_every_relationship_kind(rest_project):
    db = client(rest_project)
    owner = db.from_("pets").select("name, owner:people(name)").order("id").execute()
    assert owner.data == [{"name": "Bori", "owner": {"name": "Kim"}}, {"name": "Coco", "owner": {"name": "Kim"}},
                          {"name": "Dubu", "owner": {"name": "Lee"}}]
    pets = db.from_("people").select("name, pets(name)").eq("id", KIM).execute()
    assert pets.data == [{"name": "Kim", "pets": [{"name": "Bori"}, {"name": "Coco"}]}]
    labels = db.from_("pets").select("name, labels(name)").order("id").order("name", foreign_table="labels").execute()
    assert labels.data == [{"name": "Bori", "labels": [{"name": "calm"}, {"name": "loud"}]},
                           {"name": "Coco", "labels": [{"name": "loud"}]}, {"name": "Dubu", "labels": []}]
    bio = db.from_("people").select("name, bios(text)").eq("id", KIM).single().execute()
    assert bio.data == {"name": "Kim", "bios": {"text": "hello"}}
    inner = db.from_("people").select("name, pets!inner(name)").eq("pets.name", "Dubu").execute()
    assert inner.data == [{"name": "Lee", "pets": [{"name": "Dubu"}]}]
    limited = db.from_("people").select("name, pets(name)").eq("id", KIM).limit(1, foreign_table="pets") \
        .order("name", desc=True, foreign_table="pets").execute()
    assert limited.data == [{"name": "Kim", "pets": [{"name": "Coco"}]}]


def test_order_range_count_and_single(rest_project):
    people = client(rest_project).from_("people")
    ordered = people.select("name").order("age", desc=True, nullsfirst=False).execute()
    assert names(ordered) == ["Émile 🐶", "Kim", "Lee", "박지성"]
    page = people.select("name", count="exact").order("name").range(1, 2).execute()
    assert names(page) == ["Lee", "Émile 🐶"] and page.count == 4
    raw = http(rest_project, "GET", "/people?select=name&order=name&offset=1&limit=2", headers={"Prefer": "count=exact"})
    assert raw.status_code == 206 and raw.headers["content-range"] == "1-2/4"
    whole = http(rest_project, "GET", "/people?select=name", headers={"Prefer": "count=exact"})
    assert whole.status_code == 200 and whole.headers["content-range"] == "0-3/4"
    head = people.select("*", count="exact", head=True).execute()
    assert head.count == 4
    single = people.select("name, age").eq("id", LEE).single().execute()
    assert single.data == {"name": "Lee", "age": 12}
    with pytest.raises(APIError) as error:
        people.select("name").single().execute()
    assert error.value.code == "PGRST116"
    assert people.select("name").eq("id", PARK).maybe_single().execute().data == {"name": "박지성"}
    assert people.select("name").eq("name", "nobody").maybe_single().execute() is None
    csv = http(rest_project, "GET", "/people?select=name,age&order=name&limit=2", headers={"Accept": "text/csv"})
    assert csv.status_code == 200 and csv.text == "name,age\nKim,30\nLee,12"


def test_insert_upsert_update_delete(rest_project):
    labels = service(rest_project).from_("labels")
    inserted = labels.insert({"id": 1001, "name": "gentle"}).execute()
    assert inserted.data == [{"id": 1001, "name": "gentle"}]
    bulk = labels.insert([{"id": 1002, "name": "shy"}, {"id": 1003, "name": "bold"}], count="exact").execute()
    assert [row["id"] for row in bulk.data] == [1002, 1003] and bulk.count == 2
    upserted = labels.upsert({"id": 1001, "name": "very gentle"}, on_conflict="id").execute()
    assert upserted.data == [{"id": 1001, "name": "very gentle"}]
    by_name = labels.upsert({"id": 1004, "name": "shy"}, on_conflict="name").execute()
    assert by_name.data == [{"id": 1004, "name": "shy"}]
    ignored = labels.upsert([{"id": 1001, "name": "x"}, {"id": 1005, "name": "new"}],
                            ignore_duplicates=True).execute()
    assert ignored.data == [{"id": 1005, "name": "new"}]
    updated = labels.update({"name": "brave"}).eq("id", 1003).execute()
    assert updated.data == [{"id": 1003, "name": "brave"}]
    deleted = labels.delete(count="exact").gte("id", 1001).execute()
    assert sorted(row["id"] for row in deleted.data) == [1001, 1003, 1004, 1005] and deleted.count == 4
    assert labels.select("id").gte("id", 1000).execute().data == []
    status = http(rest_project, "POST", "/labels", key=rest_project.service_role_key,
                  json={"id": 1010, "name": "status"})
    assert status.status_code == 201 and status.text == ""
    merged = http(rest_project, "POST", "/labels", key=rest_project.service_role_key, json={"id": 1010, "name": "again"},
                  headers={"Prefer": "resolution=merge-duplicates,return=representation"})
    assert merged.status_code == 200 and merged.json() == [{"id": 1010, "name": "again"}]
    patched = http(rest_project, "PATCH", "/labels?id=eq.1010", key=rest_project.service_role_key, json={"name": "p"})
    assert patched.status_code == 204
    removed = http(rest_project, "DELETE", "/labels?id=eq.1010", key=rest_project.service_role_key)
    assert removed.status_code == 204


def test_insert_with_embedded_return_and_missing_default(rest_project):
    response = http(rest_project, "POST", "/pets?select=name,owner:people(name)", key=rest_project.service_role_key,
                    json={"owner": LEE, "name": "Nuri"}, headers={"Prefer": "return=representation"})
    assert response.status_code == 201 and response.json() == [{"name": "Nuri", "owner": {"name": "Lee"}}]
    missing = http(rest_project, "POST", "/people?columns=id,name,status&select=status", key=rest_project.service_role_key,
                   json=[{"id": "00000000-0000-4000-8000-0000000000aa", "name": "Tmp"}],
                   headers={"Prefer": "return=representation,missing=default"})
    assert missing.status_code == 201 and missing.json() == [{"status": "new"}]
    cleanup = http(rest_project, "DELETE", "/pets?name=eq.Nuri", key=rest_project.service_role_key)
    assert cleanup.status_code == 204
    cleanup = http(rest_project, "DELETE", "/people?name=eq.Tmp", key=rest_project.service_role_key)
    assert cleanup.status_code == 204


def test_rpc_by_post_and_get(rest_project):
    db = client(rest_project)
    assert db.rpc("add", {"a": 1, "b": 2}).execute().data == 3
    assert db.rpc("add", {"a": 5}).execute().data == 15
    assert db.rpc("add", {"a": 2, "b": 3}, get=True).execute().data == 5
    assert db.rpc("total", {"numbers": [1, 2, 3]}).execute().data == 6
    assert db.rpc("total", {"numbers": [1, 2, 3]}, get=True).execute().data == 6
    pets = db.rpc("pets_of", {"owner": KIM}).select("name").order("name", desc=True).execute()
    assert pets.data == [{"name": "Coco"}, {"name": "Bori"}]
    filtered = db.rpc("pets_of", {"owner": KIM}, get=True).eq("name", "Bori").execute()
    assert [row["name"] for row in filtered.data] == ["Bori"]
    single = db.rpc("pets_of", {"owner": LEE}).select("name").single().execute()
    assert single.data == {"name": "Dubu"}
    counted = db.rpc("pets_of", {"owner": KIM}, count="exact").execute()
    assert counted.count == 2
    void = http(rest_project, "POST", "/rpc/log_note", json={"body": "from rpc"})
    assert void.status_code == 204 and void.text == ""
    # PostgREST runs a GET call of any function in a read-only transaction: a VOLATILE one that
    # writes fails in Postgres (25006, 405); the client's get=True reaches the same answer.
    volatile = http(rest_project, "GET", "/rpc/log_note?body=x")
    assert volatile.status_code == 405, volatile.text
    assert volatile.json()["code"] == "25006"
    assert volatile.json()["message"] == "cannot execute INSERT in a read-only transaction"
    with pytest.raises(APIError) as refused:
        db.rpc("log_note", {"body": "x"}, get=True).execute()
    assert refused.value.code == "25006"
    notes = http(rest_project, "GET", "/notes?select=body&body=eq.x",
                 key=rest_project.service_role_key)
    assert notes.json() == [], "nothing was written"
    boom = http(rest_project, "GET", "/rpc/boom")
    assert boom.status_code == 400 and boom.json()["message"] == "boom", "a VOLATILE GET runs"


def test_profiles_select_another_schema(rest_project):
    things = client(rest_project, schema="api").from_("things").select("label").execute()
    assert things.data == [{"label": "thing one"}]
    wrong = http(rest_project, "GET", "/things", headers={"Accept-Profile": "nope"})
    assert wrong.status_code == 406 and wrong.json()["code"] == "PGRST106"
    assert wrong.json()["hint"] == "Only the following schemas are exposed: public, api"


def test_demo_schema_embeds_and_rpc(project):
    db = client(project, key=project.service_role_key)
    dogs = db.from_("dog_profile").select("name, owner:user_info(name)").order("id").limit(2).execute()
    assert dogs.data == [{"name": "Bori", "owner": {"name": "Alice"}}, {"name": "Choco", "owner": {"name": "Alice"}}]
    near = db.rpc("nearby_dogs", {"lat": 37.5665, "lng": 126.978}, get=True).select("name").limit(2).execute()
    assert [row["name"] for row in near.data] == ["Bori", "Choco"]
    assert db.rpc("sum", {"numbers": [1, 2, 3]}, get=True).execute().data == 6
