"""libcurl, libpq, libcrypto and libssl are opened on first use, not at start-up: the binary does
not name them as needed libraries, starts without them, and says which one is missing (and, for
libcrypto and libssl, which package has it) when something needs it.
The missing library is simulated by binding /dev/null over it in a mount namespace of the test's
own (root, as CI runs the suite)."""
import os
import shutil
import subprocess

import pytest

from conftest import SNM

LIBRARIES = ("libcurl.so.4", "libpq.so.5", "libcrypto.so.3", "libssl.so.3")


def library_path(soname):
    """Where the dynamic loader finds `soname` (ldconfig's cache), resolved to the file."""
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        if line.strip().startswith(soname + " ") and "=>" in line:
            return os.path.realpath(line.split("=>")[1].strip())
    pytest.fail(f"{soname} is not installed on this machine (scripts/install installs it)")


def run_without(sonames, *args):
    """Runs snm with each of `sonames` unreadable as a library (/dev/null bound over its file)."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare (a mount namespace) to hide a library")
    mounts = " && ".join(f"mount --bind /dev/null '{library_path(name)}'" for name in sonames)
    command = f"{mounts} && exec \"$0\" \"$@\""
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", command, SNM, *args],
        capture_output=True, text=True, timeout=60)


def test_the_binary_does_not_need_libcurl_libpq_libcrypto_or_libssl_to_start():
    needed = subprocess.run(["readelf", "-d", SNM], capture_output=True, text=True, check=True)
    for name in LIBRARIES:
        assert name not in needed.stdout, needed.stdout


def test_version_runs_without_libcurl_libpq_libcrypto_and_libssl():
    result = run_without(LIBRARIES, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("snm ")


def test_an_https_request_without_libcurl_says_it_is_missing():
    result = run_without(
        ["libcurl.so.4"], "--url", "https://127.0.0.1:9", "--key", "sb_publishable_x",
        "-c", "from todos select *")
    assert result.returncode == 3, result.stderr
    assert "libcurl.so.4 could not be loaded" in result.stderr
    assert "https:// requests need libcurl4" in result.stderr


def test_a_statement_that_needs_libcrypto_without_it_fails_naming_the_package():
    # `login provider` makes its PKCE verifier (libcrypto's random bytes) before any request: the
    # statement fails as a sign-in that could not be made (exit 3), the process is not ended.
    result = run_without(
        ["libcrypto.so.3"], "--url", "http://127.0.0.1:9", "--key", "sb_publishable_x",
        "-c", "login provider github")
    assert result.returncode == 3, result.stderr
    assert "login failed: libcrypto.so.3 could not be loaded" in result.stderr, result.stderr
    assert "(install Debian's libssl3)" in result.stderr, result.stderr


def test_a_wss_connection_without_libssl_says_it_is_missing():
    # An https:// project's Realtime is wss://: TLS is libssl's, asked for before connecting.
    result = run_without(
        ["libssl.so.3"], "listen", "--url", "https://127.0.0.1:9", "--key", "sb_publishable_x",
        "channel", "room", "--count", "1", "--for", "2s")
    assert result.returncode == 3, result.stderr
    assert "libssl.so.3 could not be loaded" in result.stderr, result.stderr
    assert "(wss:// needs Debian's libssl3)" in result.stderr, result.stderr
