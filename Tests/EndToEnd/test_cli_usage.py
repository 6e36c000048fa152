"""The command line without a project: help, completion scripts, usage errors."""
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
