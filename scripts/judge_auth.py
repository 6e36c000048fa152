"""scripts/judge auth: the official supabase-auth client's own test suite against `snm local`.

The suite (supabase-py's src/auth/tests) was written for four GoTrue servers in docker
(src/auth/infra/docker-compose.yml), at http://localhost:9996-9999, behind no gateway. This
harness starts four local projects shaped like them and runs the suite unchanged against them:

  9999  sign-ups on, e-mail and phone confirmation on, the phone provider on
  9998  sign-ups on, no confirmation (autoconfirm), the phone provider on, the OAuth 2.1 server's
        admin client routes on (GOTRUE_OAUTH_SERVER_ENABLED)
  9997  sign-ups off
  9996  like 9998, user tokens signed RS256 with the docker setup's own key (its kid)

each with the JWT secret the suite signs its admin tokens with, and Auth's rate limits off (the
suite signs up and in hundreds of times). Loaded into pytest as a plugin (`-p judge_auth`), this
file stands in for Supabase's API gateway: a request for localhost:999x goes to that project's
/auth/v1 with the project's `apikey`, as the hosted gateway routes /auth/v1 to GoTrue.

Out of scope by issue 21, and counted apart: SSO/SAML (`*sso*`), and, by name, the cases shaped by
the docker setup itself (HARNESS_SHAPED says why). The OAuth server's admin client cases
(`*oauth_client*`) are in scope since issue 39.
The counts are printed; the exit code is 1 when anything else fails.
"""

import json
import os
import sys
from pathlib import Path

import judge_common
from judge_common import ROOT

SUITE_SECRET = "37c304f8-51aa-419a-a1af-06154e63707a"
# docker-compose.yml's autoconfirm_with_asymmetric_keys server: its secret and its RS256 key.
ASYMMETRIC_SECRET = "Z7-AyPyChGNcQsX16cPBV-pPBo4q-zckDxkq1VZjATo"
OUT_OF_SCOPE = {  # a part of the test's name -> why it is counted apart
    "sso": "out of scope: SSO/SAML",
}
HARNESS_SHAPED = {  # a test's whole name -> why it cannot pass against separate projects
    # It signs up at the confirming server (9999) and confirms with the admin API of another
    # (9998): the docker setup runs its GoTrue servers over one database, which separate projects
    # are not. test_auth_interop.py checks the same on one project.
    "test_modify_confirm_email_using_update_user_by_id":
        "harness-shaped: two servers over one database",
    # It resends a text to +112345678, which test_sign_in_with_otp_phone signed up just before.
    # The docker server's SMS provider is Twilio without credentials, so that text fails and GoTrue
    # rolls the sign-up back: the resend finds no user and answers {}. Here the text succeeds (to
    # the inbox), and a resend within GoTrue's max_frequency is 429 over_sms_send_rate_limit, as
    # GoTrue answers with a provider that works. test_auth_phone.py checks resend both ways.
    "test_resend": "harness-shaped: the docker setup's SMS provider fails",
}


def signing_keys_file(suite: Path, into: Path) -> Path | None:
    """The docker setup's JWT keys for the asymmetric server (GOTRUE_JWT_KEYS), as a file."""
    compose = (suite / "infra" / "docker-compose.yml").read_text()
    section = compose.split("autoconfirm_with_asymmetric_keys:", 1)[-1]
    for line in section.splitlines():
        line = line.strip()
        if line.startswith("GOTRUE_JWT_KEYS:"):
            keys = line.split(":", 1)[1].strip().strip("'")
            path = into / "signing-keys.json"
            path.write_text(keys)
            path.chmod(0o600)
            return path
    return None


def start_projects(snm: str, into: Path, keys_file: Path | None, started: list[dict]) -> dict:
    """The four projects by the suite's port (each also appended to `started`)."""
    rate_limits = []
    for name in ("token_refresh", "sign_in_sign_ups", "anonymous_users", "token_verifications"):
        rate_limits += ["--auth-rate-limit", f"{name}=0"]
    phone = ["--phone-signup", "--sms-test-otp", "+15555550100=123456"]
    shapes = {
        "9999": (["--confirm-email", "--confirm-phone"] + phone, SUITE_SECRET),
        "9998": (phone + ["--oauth-server"], SUITE_SECRET),
        "9997": (["--no-signup"], SUITE_SECRET),
        "9996": (phone + ["--jwt-alg", "RS256"]
                 + (["--signing-keys", str(keys_file)] if keys_file else []), ASYMMETRIC_SECRET),
    }
    projects = {}
    for suite_port, (wanted, secret) in shapes.items():
        flags = judge_common.supported_flags(snm, "auth", f"project {suite_port}", wanted)
        projects[suite_port] = judge_common.start_project(
            snm, "auth", into / f"project-{suite_port}", secret, rate_limits + flags)
        started.append(projects[suite_port])
    return projects


def out_of_scope(name: str) -> str | None:
    test = name.rsplit("::", 1)[-1]
    if test in HARNESS_SHAPED:
        return HARNESS_SHAPED[test]
    for marker, what in OUT_OF_SCOPE.items():
        if marker in test:
            return what
    return None


def run(snm: str, venv: Path, work: Path, projects: list[dict]) -> dict:
    suite = judge_common.copy_suite(judge_common.checkout(), "auth", work)
    shaped = start_projects(snm, work, signing_keys_file(suite, work), projects)
    env = {"PYTHONPATH": os.pathsep.join([str(suite / "src"), str(ROOT / "scripts")]),
           "SNM_JUDGE_AUTH_PROJECTS": json.dumps(shaped)}
    return judge_common.run_suite(venv, suite, env, ["-p", "judge_auth"] + sys.argv[1:])


# ---- the plugin side (pytest -p judge_auth): the gateway in front of the four projects ----

def pytest_configure(config) -> None:
    projects = json.loads(os.environ.get("SNM_JUDGE_AUTH_PROJECTS", "{}"))
    if not projects:
        return
    import httpx

    def adapt(request) -> None:
        project = projects.get(str(request.url.port)) if request.url.host == "localhost" else None
        if project is None:
            return
        request.url = request.url.copy_with(
            host="127.0.0.1", port=project["port"], path="/auth/v1" + request.url.path)
        request.headers["Host"] = f"127.0.0.1:{project['port']}"
        if "apikey" not in request.headers:
            request.headers["apikey"] = project["anon_key"]

    sync_send, async_send = httpx.Client.send, httpx.AsyncClient.send

    def send(self, request, **options):
        adapt(request)
        return sync_send(self, request, **options)

    async def send_async(self, request, **options):
        adapt(request)
        return await async_send(self, request, **options)

    httpx.Client.send = send
    httpx.AsyncClient.send = send_async


if __name__ == "__main__":
    sys.exit(judge_common.judge("auth", run, out_of_scope))
