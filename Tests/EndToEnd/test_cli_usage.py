"""The command line without a project: help, completion scripts, usage errors."""
import os
import subprocess

from conftest import run_snm


def test_help_lists_modes_options_and_exit_codes(snm_bin):
    result = run_snm("--help")
    assert result.returncode == 0
    for text in ("snm [OPTIONS] -c 'STATEMENTS'", "--format FORMAT", "snm completion bash|zsh",
                 "EXIT CODES", "130 interrupted"):
        assert text in result.stdout
    assert result.stderr == ""


def test_completion_scripts_for_bash_and_zsh(snm_bin):
    bash = run_snm("completion", "bash")
    assert bash.returncode == 0
    assert "complete -o filenames -F _snm snm" in bash.stdout
    zsh = run_snm("completion", "zsh")
    assert zsh.returncode == 0
    assert zsh.stdout.startswith("#compdef snm")


def test_unknown_option_is_a_usage_error_with_a_suggestion(snm_bin):
    result = run_snm("--fromat", "json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "snm: unknown option '--fromat' (did you mean '--format'?)" in result.stderr
    assert "snm --help" in result.stderr


def test_half_a_project_configuration_is_a_usage_error(snm_bin):
    result = run_snm("--url", "http://127.0.0.1:54399", "-c", "tables",
                     env={"SUPABASE_ANON_KEY": ""})
    assert result.returncode == 2
    assert "a project URL needs a key" in result.stderr


# Every command and option sits on one table that parses argv, writes --help and the
# completion scripts (issue 14): --help works everywhere, completion knows every option.

import subprocess

import pytest

SUBCOMMANDS = [[], ["explain"], ["test"], ["check"], ["local"], ["local", "start"],
               ["local", "status"], ["completion"]]


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=lambda words: " ".join(words) or "snm")
def test_help_works_on_every_command(snm_bin, words):
    result = run_snm(*words, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    first = result.stdout.splitlines()[0]
    assert first.startswith("usage: snm " + (words[0] if words else "")) or first.startswith("snm:")


def bash_complete(snm_bin, words):
    """What bash offers for `words` (the last one being typed) with snm's completion loaded."""
    script = subprocess.run([snm_bin, "completion", "bash"], capture_output=True, text=True,
                            check=True).stdout
    line = " ".join(words)
    program = (script + "\nCOMP_WORDS=(" + line + "); COMP_CWORD=" + str(len(words) - 1)
               + "; _snm; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    return subprocess.run(["bash", "-c", program], capture_output=True, text=True,
                          check=True).stdout.split()


def test_bash_completion_knows_the_options_it_used_to_miss(snm_bin):
    assert bash_complete(snm_bin, ["snm", "test", "--j"]) == ["--jobs"]
    assert bash_complete(snm_bin, ["snm", "test", "--rep"]) == ["--report"]
    assert bash_complete(snm_bin, ["snm", "test", "--report", "t"]) == ["tap="]
    assert bash_complete(snm_bin, ["snm", "local", "start", "--po"]) == ["--port"]
    assert bash_complete(snm_bin, ["snm", "local", "st"]) == ["start", "stop", "status"]
    assert "--format" in bash_complete(snm_bin, ["snm", "--f"])
    assert bash_complete(snm_bin, ["snm", "--format", "nd"]) == ["ndjson"]


def test_snm_local_goes_through_the_one_error_funnel(snm_bin):
    result = run_snm("local", "status", "--nada")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "snm local: unknown option '--nada'",
        "usage: snm local start|stop|restart|status|reset|destroy|list|serve|inbox|logs|functions|idp [OPTIONS]",
        "Try 'snm local --help'.",
    ]
    missing = run_snm("local")
    assert missing.returncode == 2
    assert "snm local: 'snm local' needs a command: start, stop, restart, status, reset, destroy, list, serve, inbox, logs, functions or idp" \
        in missing.stderr


def test_var_means_the_same_for_explain_and_the_shell(snm_bin, project, home):
    explained = run_snm("explain", "--json", "--var", 'dog={"id": 7}', "--var", "n=3",
                        "from dog select * where id eq $dog.id and name eq $n")
    assert explained.returncode == 0, explained.stderr
    env = dict(home, SUPABASE_URL=project.url, SUPABASE_ANON_KEY=project.anon_key)
    shell = run_snm("--var", 'dog={"id": 7}', "--var", "n=3", "-c",
                    "echo $dog.id\necho '${n}'\nexpect $n == '3'", env=env)
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout == "7\n3\n"


def test_a_script_that_cannot_be_read_is_refused_before_any_project_starts(snm_bin, tmp_path):
    # No project named and CI unset: snm would use (and start) the default local project. A
    # mistyped script name (or `snm help local`, read as a script called `help`) must be a usage
    # error before that, not after a cluster was made and a gateway started for nothing.
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("SUPABASE_") and name not in ("CI", "SNM_PROFILE")}
    env.update({"XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)})
    (tmp_path / "folder.snm").mkdir()
    cases = [(["help", "local"], "snm: no such file 'help'"),
             (["missing.snm"], "snm: no such file 'missing.snm'"),
             (["folder.snm"], "snm: 'folder.snm' is a directory; name a .snm file")]
    try:
        for args, message in cases:
            result = subprocess.run([snm_bin, *args], capture_output=True, text=True, env=env,
                                    cwd=tmp_path, timeout=120)
            assert result.returncode == 2, (args, result.stderr)
            assert message in result.stderr and "snm --help" in result.stderr, result.stderr
            assert "using the local project" not in result.stderr
            assert result.stdout == ""
            assert not (tmp_path / "data" / "snm" / "local").exists(), "a local project was made"
    finally:
        if (tmp_path / "data" / "snm" / "local").exists():
            subprocess.run([snm_bin, "local", "destroy", "--yes"], env=env, cwd=tmp_path,
                           capture_output=True, timeout=120)


@pytest.mark.parametrize("tail,said", [
    ("'x'", "expected the end of the statement, found a string"),
    ('"x"', "expected the end of the statement, found a double-quoted name or string"),
    ("extra", "unexpected 'extra'; expected the end of the statement"),
])
def test_what_follows_a_whole_statement_is_named_in_words_that_read(snm_bin, tmp_path, tail,
                                                                    said):
    # `from t select * 'x'` said 'unexpected a string; expected the end of the statement'.
    script = tmp_path / "trailing.snm"
    script.write_text(f"from t select * {tail}\n")
    result = run_snm("check", str(script))
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{script}:1:17: error: {said}\n" in result.stderr, result.stderr
    assert "unexpected a" not in result.stderr


@pytest.mark.parametrize("args, env, shown", [
    (["-c", "echo 'x'"], {"SUPABASE_URL": "http://127.0.0.1:9\n", "SUPABASE_ANON_KEY": "k"},
     "snm: 'http://127.0.0.1:9\\n' is not a project URL: expected http(s)://host[:port]"),
    (["--url", "http://x\n\x1b[2J", "--key", "k", "-c", "echo 'x'"], {},
     "snm: 'http://x\\n\\u{1B}[2J' is not a project URL"),
    (["--format", "json\n", "-c", "echo 'x'"], {}, "snm: unknown format 'json\\n'"),
    (["--profile", "dev\nprod", "-c", "echo 'x'"], {}, "snm: no profile 'dev\\nprod'"),
    (["--timeout", "5\nx", "-c", "echo 'x'"], {}, "not '5\\nx'"),
    (["--session", "shared\n", "-c", "echo 'x'"], {}, "not 'shared\\n'"),
    (["local", "start", "--jwt-alg", "HS256\nx"], {}, "snm local: option '--jwt-alg': 'HS256\\nx'"),
], ids=["SUPABASE_URL", "--url", "--format", "--profile", "--timeout", "--session", "--jwt-alg"])
def test_a_refused_value_with_a_line_feed_is_shown_escaped_on_its_line(snm_bin, tmp_path, args,
                                                                       env, shown):
    """A SUPABASE_URL read from a file with its newline was refused with the newline raw inside
    the quotes (the message went on on the next line); every usage error quotes what it refuses
    as every message does, escaped: `\\n`, `\\u{1B}`."""
    result = run_snm(*args, env={"XDG_CONFIG_HOME": str(tmp_path), **env}, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    first, *rest = result.stderr.splitlines()
    assert shown in first, result.stderr
    assert rest[-1].startswith("Try 'snm") and all(line.startswith(("usage: ", "Try ")) for line
                                                   in rest), result.stderr
