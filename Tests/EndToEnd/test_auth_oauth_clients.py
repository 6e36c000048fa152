"""The OAuth 2.1 server's admin client routes (issue 39), as GoTrue answers them with
`OAUTH_SERVER_ENABLED`: a project started with `--oauth-server` registers, lists, reads, changes and
deletes OAuth clients and makes a confidential client a new secret, through the official
`supabase-auth` client's `admin.oauth` and raw HTTP. Only an admin may; the secret is shown once,
in the answer that made it, and kept only as its SHA-256; the switch off answers 404
feature_disabled."""
import base64
import hashlib
import json
import os
import subprocess
import uuid

import httpx
import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError
from supabase_auth.types import CreateOAuthClientParams, UpdateOAuthClientParams

from auth_helpers import new_email, service_headers
from conftest import ROOT, run_snm, start_project

CALLBACK = "https://app.example.com/callback"


@pytest.fixture(scope="module")
def oauth_project(start_extra_project):
    return start_extra_project("auth-oauth-server", "--oauth-server")


def admin_for(project):
    return SyncGoTrueAdminAPI(url=project.auth_url, headers=service_headers(project))


def clients_url(project, *rest):
    return "/".join([project.auth_url, "admin", "oauth", "clients", *rest])


def call(project, method, *rest, json=None, content=None, headers=None):
    return httpx.request(method, clients_url(project, *rest), json=json, content=content,
                         headers=headers or service_headers(project))


def hashed(secret):
    """What GoTrue keeps of a client secret: its SHA-256, base64url without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(secret.encode()).digest()).rstrip(b"=").decode()


def test_the_official_client_manages_a_client_from_create_to_delete(oauth_project):
    admin = admin_for(oauth_project)
    made = admin.oauth.create_client(CreateOAuthClientParams(
        client_name="Dog walker", redirect_uris=[CALLBACK, "walker://oauth"],
        client_uri="https://app.example.com")).client
    assert made.client_type == "confidential" and made.registration_type == "manual"
    assert made.token_endpoint_auth_method == "client_secret_basic"
    assert made.grant_types == ["authorization_code", "refresh_token"]
    assert made.response_types == ["code"]
    assert made.redirect_uris == [CALLBACK, "walker://oauth"]
    assert made.client_uri == "https://app.example.com" and made.logo_uri is None
    assert len(made.client_secret) == 43 and uuid.UUID(made.client_id)
    assert made.created_at == made.updated_at

    listed = admin.oauth.list_clients().clients
    mine = [client for client in listed if client.client_id == made.client_id]
    assert len(mine) == 1 and mine[0].client_name == "Dog walker"
    assert all(client.client_secret is None for client in listed), "a secret is never listed"

    got = admin.oauth.get_client(made.client_id).client
    assert got.client_name == "Dog walker" and got.client_secret is None

    changed = admin.oauth.update_client(made.client_id, UpdateOAuthClientParams(
        client_name="Dog walker 2", redirect_uris=[CALLBACK])).client
    assert changed.client_name == "Dog walker 2" and changed.redirect_uris == [CALLBACK]
    assert changed.client_uri == "https://app.example.com", "what the update left out stays"
    assert changed.client_secret is None and changed.updated_at > made.updated_at
    assert admin.oauth.get_client(made.client_id).client.client_name == "Dog walker 2"

    renewed = admin.oauth.regenerate_client_secret(made.client_id).client
    assert renewed.client_secret and renewed.client_secret != made.client_secret
    assert renewed.client_name == "Dog walker 2"

    assert admin.oauth.delete_client(made.client_id) is None
    with pytest.raises(AuthApiError) as gone:
        admin.oauth.get_client(made.client_id)
    assert gone.value.status == 404 and gone.value.code == "oauth_client_not_found"
    assert gone.value.message == "OAuth client not found"
    assert made.client_id not in [c.client_id for c in admin.oauth.list_clients().clients]


def test_secrets_are_kept_hashed_and_shown_only_when_made(oauth_project):
    made = call(oauth_project, "POST", json={"client_name": "hashed", "redirect_uris": [CALLBACK]})
    assert made.status_code == 201, made.text
    client_id, secret = made.json()["client_id"], made.json()["client_secret"]
    stored = oauth_project.sql(
        f"select client_secret_hash from auth.oauth_clients where id = '{client_id}'")
    assert stored == hashed(secret)
    everything = oauth_project.sql("select row_to_json(c)::text from auth.oauth_clients c")
    assert secret not in everything
    for answer in [call(oauth_project, "GET"), call(oauth_project, "GET", client_id),
                   call(oauth_project, "PUT", client_id, json={"client_name": "hashed 2"})]:
        assert answer.status_code == 200, answer.text
        assert '"client_secret":' not in answer.text and secret not in answer.text
    renewed = call(oauth_project, "POST", client_id, "regenerate_secret")
    assert renewed.status_code == 200, renewed.text
    new_secret = renewed.json()["client_secret"]
    assert new_secret != secret
    assert oauth_project.sql(
        f"select client_secret_hash from auth.oauth_clients where id = '{client_id}'"
    ) == hashed(new_secret)


def test_a_public_client_has_no_secret_to_regenerate(oauth_project):
    made = call(oauth_project, "POST", json={
        "client_name": "cli", "redirect_uris": ["http://127.0.0.1:8765/cb"],
        "token_endpoint_auth_method": "none"})
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["client_type"] == "public" and body["token_endpoint_auth_method"] == "none"
    assert "client_secret" not in body
    assert list(body) == ["client_id", "client_type", "redirect_uris", "token_endpoint_auth_method",
                          "grant_types", "response_types", "client_name", "registration_type",
                          "created_at", "updated_at"]
    assert oauth_project.sql(
        f"select client_secret_hash is null from auth.oauth_clients where id = '{body['client_id']}'"
    ) == "t"
    refused = call(oauth_project, "POST", body["client_id"], "regenerate_secret")
    assert refused.status_code == 400
    assert refused.json()["error_code"] == "validation_failed"
    assert refused.json()["msg"] == "Cannot regenerate secret for public client"
    switched = call(oauth_project, "PUT", body["client_id"],
                    json={"token_endpoint_auth_method": "client_secret_post"})
    assert switched.status_code == 400
    assert switched.json()["msg"] == (
        "token_endpoint_auth_method 'client_secret_post' is not valid for client_type 'public'; "
        "valid methods: [none]")


@pytest.mark.parametrize("body, message", [
    ({}, "400: redirect_uris is required"),
    ({"redirect_uris": ["http://app.example.com/cb"]},
     "400: invalid redirect_uri 'http://app.example.com/cb': HTTP scheme only allowed for localhost"),
    ({"redirect_uris": [CALLBACK + "#top"]},
     f"400: invalid redirect_uri '{CALLBACK}#top': fragment not allowed in redirect URI"),
    ({"redirect_uris": ["javascript://x/alert(1)"]},
     "400: invalid redirect_uri 'javascript://x/alert(1)': "
     "scheme 'javascript' is not allowed for security reasons"),
    ({"redirect_uris": ["walker:callback"]},
     "400: invalid redirect_uri 'walker:callback': must have scheme and host"),
    ({"redirect_uris": [CALLBACK] * 11}, "400: redirect_uris cannot exceed 10 items"),
    ({"redirect_uris": [CALLBACK], "grant_types": ["implicit"]},
     "400: grant_types must only contain 'authorization_code' and/or 'refresh_token'"),
    ({"redirect_uris": [CALLBACK], "client_name": "x" * 1025},
     "400: client_name cannot exceed 1024 characters"),
    ({"redirect_uris": [CALLBACK], "logo_uri": "logo.png"}, "400: logo_uri must be a valid URL"),
    ({"redirect_uris": [CALLBACK], "client_type": "trusted"},
     "400: client_type must be 'public' or 'confidential'"),
    ({"redirect_uris": [CALLBACK], "token_endpoint_auth_method": "private_key_jwt"},
     "400: token_endpoint_auth_method must be one of: "
     "[none client_secret_basic client_secret_post]"),
    ({"redirect_uris": [CALLBACK], "client_type": "confidential",
      "token_endpoint_auth_method": "none"},
     "400: client_type 'confidential' is inconsistent with token_endpoint_auth_method 'none' "
     "(expected client_type 'public')"),
])
def test_a_create_is_refused_with_gotrues_words(oauth_project, body, message):
    refused = call(oauth_project, "POST", json=body)
    assert refused.status_code == 400, refused.text
    assert refused.json()["error_code"] == "validation_failed"
    assert refused.json()["msg"] == message


def test_bodies_ids_and_methods_gotrue_refuses(oauth_project):
    for content in [b"", b"[1]", b'{"redirect_uris": "https://a.example/cb"}', b"{"]:
        refused = call(oauth_project, "POST", content=content)
        assert refused.status_code == 400 and refused.json()["error_code"] == "bad_json"
        assert refused.json()["msg"] == "Invalid JSON body"
    made = call(oauth_project, "POST", json={"redirect_uris": [CALLBACK]}).json()["client_id"]
    updates = [
        ({}, "No fields provided for update"),
        ({"client_type": "public", "client_name": None}, "No fields provided for update"),
        ({"redirect_uris": []}, "redirect_uris cannot be empty"),
        ({"grant_types": []}, "grant_types cannot be empty"),
        ({"client_uri": "app.example.com"}, "client_uri must be a valid URL"),
        ({"token_endpoint_auth_method": "none"},
         "token_endpoint_auth_method 'none' is not valid for client_type 'confidential'; "
         "valid methods: [client_secret_basic client_secret_post]"),
    ]
    for body, message in updates:
        refused = call(oauth_project, "PUT", made, json=body)
        assert refused.status_code == 400, (body, refused.text)
        assert refused.json()["error_code"] == "validation_failed" and refused.json()["msg"] == message
    # The id: read as a UUID (400 when it is none), then found (404), then the method (405).
    bad = call(oauth_project, "GET", "not-a-uuid")
    assert bad.status_code == 400 and bad.json()["msg"] == "invalid client_id format"
    unknown = call(oauth_project, "DELETE", str(uuid.uuid4()))
    assert unknown.status_code == 404 and unknown.json()["error_code"] == "oauth_client_not_found"
    assert call(oauth_project, "PATCH", str(uuid.uuid4())).status_code == 404
    assert call(oauth_project, "PATCH", made).status_code == 405
    assert call(oauth_project, "GET", made, "regenerate_secret").status_code == 405
    assert call(oauth_project, "DELETE").status_code == 405
    assert call(oauth_project, "GET", "{" + made.upper() + "}").json()["client_id"] == made


def test_the_list_is_every_client_newest_first_and_empty_as_gotrues(oauth_project):
    admin = admin_for(oauth_project)
    first = admin.oauth.create_client(CreateOAuthClientParams(
        client_name="older", redirect_uris=[CALLBACK])).client.client_id
    second = admin.oauth.create_client(CreateOAuthClientParams(
        client_name="newer", redirect_uris=[CALLBACK])).client.client_id
    ids = [client.client_id for client in admin.oauth.list_clients().clients]
    assert ids.index(second) < ids.index(first)
    for client_id in ids:
        assert call(oauth_project, "DELETE", client_id).status_code == 204
    empty = call(oauth_project, "GET")
    assert empty.status_code == 200 and empty.json() == {}
    assert admin.oauth.list_clients().clients == []


def test_only_an_admin_manages_clients(oauth_project):
    nobody = httpx.get(clients_url(oauth_project), headers={"apikey": oauth_project.anon_key})
    assert nobody.status_code == 401 and nobody.json()["error_code"] == "no_authorization"
    anon = httpx.post(clients_url(oauth_project), json={"redirect_uris": [CALLBACK]},
                      headers=oauth_project.headers())
    assert anon.status_code == 403 and anon.json()["error_code"] == "not_admin"
    user = SyncGoTrueClient(url=oauth_project.auth_url, headers=oauth_project.headers(),
                            auto_refresh_token=False, persist_session=False)
    token = user.sign_up({"email": new_email("oauth"), "password": "walk-the-dog"}) \
        .session.access_token
    as_user = SyncGoTrueAdminAPI(url=oauth_project.auth_url,
                                 headers=oauth_project.headers(token=token))
    with pytest.raises(AuthApiError) as refused:
        as_user.oauth.list_clients()
    assert refused.value.status == 403 and refused.value.code == "not_admin"
    # No API role may read the table (PostgREST cannot serve it).
    for role in ["anon", "authenticated"]:
        assert oauth_project.sql(
            f"select has_table_privilege('{role}', 'auth.oauth_clients', 'select')") == "f"


def test_the_commands_in_docs_auth_md_register_and_list_a_client(oauth_project):
    doc = (ROOT / "docs" / "auth.md").read_text()
    section = doc.split("## The OAuth 2.1 server's clients (local project)", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.startswith("snm local start --oauth-server\n")
    commands = block.split("\n", 1)[1]  # the project is running already
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + commands], capture_output=True, text=True,
        timeout=60, env={**os.environ, "URL": oauth_project.url,
                         "SECRET_KEY": oauth_project.status["secret_key"]})
    assert done.returncode == 0, done.stderr
    decoder = json.JSONDecoder()
    made, end = decoder.raw_decode(done.stdout)
    listed, _ = decoder.raw_decode(done.stdout, end)
    assert made["client_name"] == "Dog walker" and made["client_secret"]
    assert made["client_id"] in [client["client_id"] for client in listed["clients"]]


def test_the_switch_is_remembered_and_off_answers_feature_disabled(oauth_project):
    def restart(*flags):
        assert run_snm("local", "stop", "--dir", oauth_project.data_dir, timeout=60).returncode == 0
        return start_project("auth-oauth-server", *flags, fresh=False)

    assert call(restart(), "GET").status_code == 200, "started again without flags: still on"
    answer = call(restart("--no-oauth-server"), "GET")
    assert answer.status_code == 404 and answer.json()["error_code"] == "feature_disabled"
    assert answer.json()["msg"] == "OAuth server is disabled"
    assert call(restart("--oauth-server"), "GET").status_code == 200
