"""Hosted projects' Auth defaults (e-mail confirmation on, anonymous sign-ins off): the example
scripts pass on such a project as on the local default, twice in a row, and a sign-in or sign-up
those settings refuse says which setting and what a script does instead."""
from conftest import run_snm
from script_golden import transcript
from test_scripts import SMOKE, run_in_root, smoke_env, snm_env


def hosted_env(project, tmp_path):
    return {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "NO_COLOR": "1"}


def test_the_smoke_scripts_pass_twice_on_a_hosted_style_project(hosted_style_project, tmp_path):
    env = smoke_env(hosted_style_project, tmp_path)
    for _ in range(2):
        result = run_in_root("test", "--jobs", "3", SMOKE, env=env, timeout=300)
        assert result.returncode == 0, transcript(result)
        assert result.stdout.splitlines()[-1] == "10 passed, 0 failed"


def test_without_the_service_key_the_smoke_scripts_say_what_they_need(hosted_style_project,
                                                                       tmp_path):
    result = run_in_root(f"{SMOKE}/02-profile.snm", env=snm_env(hosted_style_project, tmp_path))
    assert result.returncode != 0
    assert ("snm: this statement needs the project's service key: pass --service-key, set "
            "SUPABASE_SERVICE_ROLE_KEY") in result.stderr


def test_a_refused_anonymous_sign_in_says_the_setting(hosted_style_project, tmp_path):
    result = run_snm("-c", "login", env=hosted_env(hosted_style_project, tmp_path))
    assert result.returncode == 3
    assert result.stderr.splitlines()[1:] == [
        "snm: login failed: auth server answered 422: Anonymous sign-ins are disabled "
        "(anonymous_provider_disabled)",
        "  advice: anonymous sign-ins are off on this project: sign in with `login email ...`, "
        "or make a confirmed user with `admin create user email '...' password '...' confirmed` "
        "(the service key); the local project turns them on with `snm local restart "
        "--anonymous`",
    ]


def test_a_sign_up_awaiting_confirmation_says_the_setting(hosted_style_project, tmp_path):
    env = hosted_env(hosted_style_project, tmp_path)
    email = f"hosted-{tmp_path.name[-8:].lower()}@example.com"
    statements = (f"signup email '{email}' password 'walks-the-dog-1'\n"
                  f"login email '{email}' password 'walks-the-dog-1'")
    result = run_snm("-c", statements, env=env)
    assert result.returncode == 3
    assert result.stdout == (
        "signed up; email confirmation is on, so no one is signed in: confirm the email, then "
        "`login email ...` (a script makes confirmed users with `admin create user ... "
        "confirmed`, the service key)\n")
    assert result.stderr.splitlines()[1:] == [
        "snm: login failed: auth server answered 400: Email not confirmed (email_not_confirmed)",
        "  advice: email confirmation is on: confirm the address first (the mailed link or code; "
        "the local project's `inbox`), or make confirmed users with `admin create user ... "
        "confirmed` (the service key)",
    ]
