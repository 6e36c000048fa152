"""Row-level security through snm's REST gateway with the official client: two users signed up
through /auth/v1 each see and change only their own notes; anon sees only shared ones;
service_role sees everything; auth.uid() is the caller in defaults and policies."""
from rest_helpers import client, service, sign_up


def bodies(response):
    return sorted(row["body"] for row in response.data)


def test_two_users_see_and_change_only_their_own_rows(rest_project):
    first_id, first_token = sign_up(rest_project)
    second_id, second_token = sign_up(rest_project)
    first = client(rest_project, token=first_token).from_("notes")
    second = client(rest_project, token=second_token).from_("notes")

    mine = first.insert([{"body": "first private"}, {"body": "first shared", "shared": True}],
                        default_to_null=False).execute()
    assert [row["owner"] for row in mine.data] == [first_id, first_id]  # default auth.uid()
    second.insert({"body": "second private"}).execute()

    assert bodies(first.select("body").in_("owner", [first_id, second_id]).execute()) == [
        "first private", "first shared"]
    assert bodies(second.select("body").in_("owner", [first_id, second_id]).execute()) == [
        "first shared", "second private"]

    # The second user cannot change or delete the first user's rows: nothing matches.
    assert second.update({"body": "hijacked"}).eq("owner", first_id).execute().data == []
    assert second.delete().eq("owner", first_id).execute().data == []
    # ...and cannot write a row in the first user's name.
    forged = client(rest_project, token=second_token).from_("notes")
    try:
        forged.insert({"body": "forged", "owner": first_id}).execute()
        raise AssertionError("a forged owner was accepted")
    except Exception as error:  # APIError 42501 (403)
        assert getattr(error, "code", None) == "42501"

    changed = first.update({"body": "first private, edited"}).eq("body", "first private").execute()
    assert [row["body"] for row in changed.data] == ["first private, edited"]
    owners = service(rest_project).from_("notes").select("body,owner").in_("owner", [first_id, second_id]).execute()
    assert sorted((row["owner"] == first_id, row["body"]) for row in owners.data) == [
        (False, "second private"), (True, "first private, edited"), (True, "first shared")]

    anon = client(rest_project).from_("notes").select("body").in_("owner", [first_id, second_id]).execute()
    assert bodies(anon) == ["first shared"]

    assert second.delete().eq("owner", second_id).execute().data[0]["body"] == "second private"
    remaining = service(rest_project).from_("notes").select("body").in_("owner", [first_id, second_id]).execute()
    assert bodies(remaining) == ["first private, edited", "first shared"]


def test_anon_cannot_write_and_counts_follow_policies(rest_project):
    user_id, token = sign_up(rest_project)
    client(rest_project, token=token).from_("notes").insert(
        [{"body": "a"}, {"body": "b"}, {"body": "c", "shared": True}], default_to_null=False).execute()
    mine = client(rest_project, token=token).from_("notes").select("*", count="exact").eq("owner", user_id).execute()
    assert mine.count == 3
    theirs = client(rest_project).from_("notes").select("*", count="exact").eq("owner", user_id).execute()
    assert theirs.count == 1
    try:
        client(rest_project).from_("notes").insert({"body": "anon"}).execute()
        raise AssertionError("anon wrote a note")
    except Exception as error:
        assert getattr(error, "code", None) == "42501"
