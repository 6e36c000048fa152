"""Sign in with Apple (and Google) by a real provider's keys (issue 39): the project folder's
config names the provider's JWKS, a file or an https:// URL (`[auth.external.apple] jwks`, with
`client_id` the audience), and `POST /token?grant_type=id_token` verifies tokens with those keys as
GoTrue does: Apple's issuer, the signature by the key the token's kid names, expiry, audience, the
nonce's SHA-256. The test is the provider: it makes its own RSA keys, serves their JWKS over HTTPS
from a CA of its own (the project trusts it through SSL_CERT_FILE), and signs the tokens. Keys are
kept and read again only for a kid the set lacks; a set that cannot be fetched refuses the token
(400), never a server error; the test issuer's tokens no longer sign in with Apple."""
import hashlib
import http.server
import json
import ssl
import threading
import time
import uuid

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from auth_helpers import new_email
from conftest import WORKDIR, LocalProject, free_port, run_snm
from tls_front import make_certificates

APPLE = "https://appleid.apple.com"
GOOGLE = "https://accounts.google.com"
APP = "com.example.dogs"


class Provider:
    """RSA keys by kid, a JWKS of the published ones, tokens signed with any of them."""

    def __init__(self):
        self.keys = {}
        self.published = []

    def key(self, kid):
        if kid not in self.keys:
            self.keys[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return self.keys[kid]

    def publish(self, kid):
        self.key(kid)
        self.published.append(kid)

    def jwks(self):
        keys = []
        for kid in self.published:
            jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.keys[kid].public_key()))
            keys.append({**jwk, "kid": kid, "alg": "RS256", "use": "sig"})
        return {"keys": keys}

    def token(self, kid, issuer=APPLE, audience=APP, nonce=None, expires_in=600, email=None,
              subject=None):
        now = int(time.time())
        email = email or new_email("keys")
        claims = {"iss": issuer, "aud": audience, "iat": now, "exp": now + expires_in,
                  "sub": subject or "sub-" + hashlib.sha256(email.encode()).hexdigest()[:24],
                  "email": email, "email_verified": True}
        if nonce is not None:
            claims["nonce"] = hashlib.sha256(nonce.encode()).hexdigest()
        pem = self.key(kid).private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption())
        return jwt.encode(claims, pem, algorithm="RS256", headers={"kid": kid})


class JWKSServer:
    """Serves a provider's JWKS at https://127.0.0.1:PORT/keys and counts the fetches; `failing`
    answers 500."""

    def __init__(self, provider, certificates):
        self.provider = provider
        self.fetches = 0
        self.failing = False
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.fetches += 1
                body = json.dumps(server.provider.jwks()).encode()
                self.send_response(500 if server.failing else 200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificates / "server.pem", certificates / "server.key")
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.httpd.server_address[1]}/keys"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


CONFIG = """\
project_id = "provider-keys"

[api]
port = {port}

[auth.rate_limit]
sign_in_sign_ups = 0
token_verifications = 0
token_refresh = 0

[auth.external.apple]
enabled = true
client_id = "{app},com.example.other-app"
jwks = "{apple_jwks}"

[auth.external.google]
enabled = true
client_id = "{app}"
jwks = "keys/google-jwks.json"
"""


def make_folder(name, apple_jwks, google, port):
    root = WORKDIR / "repos" / f"{name}-{uuid.uuid4().hex[:8]}"
    (root / "supabase" / "keys").mkdir(parents=True)
    (root / "supabase" / "keys" / "google-jwks.json").write_text(json.dumps(google.jwks()))
    (root / "supabase" / "config.toml").write_text(
        CONFIG.format(port=port, app=APP, apple_jwks=apple_jwks))
    return root


@pytest.fixture(scope="module")
def setup(snm_bin):
    certificates = WORKDIR / "certs" / f"keys-{uuid.uuid4().hex[:8]}"
    certificates.mkdir(parents=True)
    make_certificates(certificates)
    apple, google = Provider(), Provider()
    apple.publish("apple-1")
    google.publish("google-1")
    server = JWKSServer(apple, certificates)
    port = free_port()
    root = make_folder("provider-keys", server.url, google, port)
    env = {"XDG_DATA_HOME": str(root.parent / f"data-{root.name}"),
           "SSL_CERT_FILE": str(certificates / "ca.pem")}
    started = run_snm("local", "start", "--json", cwd=root, env=env, timeout=240)
    assert started.returncode == 0, started.stderr
    status = json.loads(started.stdout)
    project = LocalProject(status["data_dir"], port, status)
    yield project, apple, google, server
    run_snm("local", "destroy", "--yes", cwd=root, env=env, timeout=120)
    server.stop()


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


def grant(project, provider, token, nonce=None):
    body = {"provider": provider, "id_token": token, **({"nonce": nonce} if nonce else {})}
    return httpx.post(project.auth_url + "/token?grant_type=id_token", headers=project.headers(),
                      json=body)


BAD = {"error": "invalid request", "error_description": "Bad ID token"}


def test_apple_signs_in_with_the_keys_fetched_once(setup):
    project, apple, _google, server = setup
    before = server.fetches
    email = new_email("apple-keys")
    session = client_for(project).sign_in_with_id_token(
        {"provider": "apple", "token": apple.token("apple-1", email=email, nonce="raw-1"),
         "nonce": "raw-1"}).session
    assert session.user.email == email and session.user.app_metadata["provider"] == "apple"
    again = client_for(project).sign_in_with_id_token(
        {"provider": "apple", "token": apple.token("apple-1", email=email,
                                                   audience="com.example.other-app")}).session
    assert again.user.id == session.user.id
    assert server.fetches - before <= 1  # kept: a second token of a known kid fetches nothing
    kept = server.fetches
    client_for(project).sign_in_with_id_token(
        {"provider": "apple", "token": apple.token("apple-1")})
    assert server.fetches == kept


def test_a_new_kid_fetches_the_set_again_and_an_unknown_one_is_refused(setup):
    project, apple, _google, server = setup
    client_for(project).sign_in_with_id_token({"provider": "apple", "token": apple.token("apple-1")})
    before = server.fetches
    apple.publish("apple-2")  # the provider rotates its keys
    session = client_for(project).sign_in_with_id_token(
        {"provider": "apple", "token": apple.token("apple-2")}).session
    assert session.user.app_metadata["provider"] == "apple"
    assert server.fetches == before + 1
    answer = grant(project, "apple", apple.token("never-published"))
    assert (answer.status_code, answer.json()) == (400, BAD)
    assert server.fetches == before + 2


def test_a_set_that_cannot_be_fetched_refuses_the_token_not_the_server(setup):
    project, apple, _google, server = setup
    client_for(project).sign_in_with_id_token({"provider": "apple", "token": apple.token("apple-1")})
    apple.publish("apple-3")
    before = server.fetches
    server.failing = True
    try:
        answer = grant(project, "apple", apple.token("apple-3"))
        assert (answer.status_code, answer.json()) == (400, BAD)
        assert server.fetches == before + 1  # refused because the set could not be had
        kept = client_for(project).sign_in_with_id_token(  # the keys kept still verify
            {"provider": "apple", "token": apple.token("apple-1")}).session
        assert kept.user.app_metadata["provider"] == "apple"
    finally:
        server.failing = False
    session = client_for(project).sign_in_with_id_token(
        {"provider": "apple", "token": apple.token("apple-3")}).session
    assert session.user.app_metadata["provider"] == "apple"


@pytest.mark.parametrize("case", ["issuer", "audience", "expired", "signature", "nonce"])
def test_tokens_the_project_refuses(setup, case):
    project, apple, _google, _server = setup
    token, nonce = apple.token("apple-1"), None
    expected = (400, BAD)
    if case == "issuer":
        token = apple.token("apple-1", issuer="https://issuer.example.com")
        expected = (400, {"code": 400, "error_code": "validation_failed",
                          "msg": "Detected ID token issuer is not an Apple ID token issuer"})
    elif case == "audience":
        token = apple.token("apple-1", audience="com.example.stranger")
        expected = (400, {"error": "invalid request", "error_description":
                          "Unacceptable audience in id_token: [com.example.stranger]"})
    elif case == "expired":
        token = apple.token("apple-1", expires_in=-1)
    elif case == "signature":
        other = Provider()  # another key under the published kid
        token = other.token("apple-1")
    elif case == "nonce":
        token, nonce = apple.token("apple-1", nonce="n-1"), "n-2"
        expected = (400, {"error": "invalid nonce", "error_description": "Nonces mismatch"})
    answer = grant(project, "apple", token, nonce)
    body = answer.json()
    if "msg" in expected[1]:
        body = {key: body.get(key) for key in ("code", "error_code", "msg")}
    assert (answer.status_code, body) == expected


def test_a_nonce_signs_in_once(setup):
    project, apple, _google, _server = setup
    email = new_email("apple-replay")
    credentials = {"provider": "apple", "nonce": "once-only",
                   "token": apple.token("apple-1", email=email, nonce="once-only")}
    assert client_for(project).sign_in_with_id_token(credentials).session.user.email == email
    replay = grant(project, "apple", apple.token("apple-1", email=email, nonce="once-only"),
                   "once-only")
    assert (replay.status_code, replay.json()) == (
        400, {"error": "invalid nonce", "error_description": "Nonce has already been used"})


def test_the_test_issuers_tokens_no_longer_sign_in_with_apple(setup):
    project, _apple, _google, _server = setup
    minted = run_snm("local", "idp", "token", "--dir", project.data_dir, "--provider", "apple",
                     "--email", new_email("test-issuer"))
    assert minted.returncode == 0, minted.stderr
    assert "takes only Apple id_tokens signed by the keys of [auth.external.apple] jwks" \
        in minted.stderr
    answer = grant(project, "apple", minted.stdout.strip())
    assert (answer.status_code, answer.json()) == (400, BAD)


def test_google_signs_in_with_the_keys_of_a_file_and_checks_its_issuer(setup):
    project, _apple, google, _server = setup
    email = new_email("google-keys")
    session = client_for(project).sign_in_with_id_token(
        {"provider": "google", "token": google.token("google-1", issuer=GOOGLE, email=email,
                                                     nonce="g-1"), "nonce": "g-1"}).session
    assert session.user.email == email and session.user.app_metadata["provider"] == "google"
    with pytest.raises(AuthApiError) as refused:
        client_for(project).sign_in_with_id_token(
            {"provider": "google", "token": google.token("google-1", issuer=APPLE)})
    assert refused.value.status == 400 and refused.value.message == "Bad ID token"


@pytest.mark.parametrize("apple_table, message", [
    ('enabled = true\njwks = "https://127.0.0.1:1/keys"\n',
     "[auth.external.apple] jwks needs client_id"),
    ('enabled = true\nclient_id = "app"\njwks = "http://127.0.0.1:1/keys"\n',
     "[auth.external.apple] jwks must be a JWKS file or an https:// URL"),
    ('enabled = true\nclient_id = "app"\njwks = "missing.json"\n',
     "which cannot be read"),
])
def test_a_jwks_the_project_cannot_use_is_an_error_at_start(snm_bin, apple_table, message):
    root = WORKDIR / "repos" / f"bad-keys-{uuid.uuid4().hex[:8]}"
    (root / "supabase").mkdir(parents=True)
    (root / "supabase" / "config.toml").write_text(
        f"[api]\nport = {free_port()}\n\n[auth.external.apple]\n{apple_table}")
    env = {"XDG_DATA_HOME": str(root.parent / f"data-{root.name}")}
    result = run_snm("local", "start", cwd=root, env=env, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "supabase/config.toml:" in result.stderr and message in result.stderr
