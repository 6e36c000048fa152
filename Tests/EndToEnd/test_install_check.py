"""scripts/install's last step: every library the release link asks for comes from a package it names,
from the machine image or from the toolchain (a fresh machine once failed with 'cannot find -lcurl'
because libcurl4-openssl-dev was only installed by hand)."""
import importlib.machinery
import importlib.util
import os
import pathlib
import re
import subprocess

from conftest import ROOT, SNM

CHECK = ROOT / "scripts" / "check-link-packages"


def named_packages():
    text = (ROOT / "scripts" / "install").read_text()
    body = re.search(r"apt_packages=\((.*?)\n\)", text, re.S).group(1)
    return [w for line in body.splitlines() for w in line.split("#")[0].split()]


def check(*packages):
    bin_path = str(pathlib.Path(SNM).parent)
    return subprocess.run([str(CHECK), bin_path, *packages], capture_output=True, text=True, timeout=120)


def test_every_library_of_the_release_link_comes_from_a_named_package():
    done = check(*named_packages())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_a_package_left_out_of_install_is_named():
    # libuv: libcurl and libpq are no longer linked (their shims open them on first use).
    packages = [p for p in named_packages() if p != "libuv1-dev"]
    done = check(*packages)
    assert done.returncode == 1
    assert "-luv" in done.stdout and "libuv1-dev" in done.stdout, done.stdout
    assert "add it to apt_packages" in done.stdout


def check_module():
    loader = importlib.machinery.SourceFileLoader("check_link_packages", str(CHECK))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_a_linker_neither_the_toolchain_nor_path_has_is_named(tmp_path):
    # Package.swift links the release build with lld (-use-ld=lld), which swift.org toolchains
    # ship beside swiftc; without it the link failed last, with only clang's "invalid linker name".
    linker = check_module().linker
    toolchain, elsewhere = tmp_path / "usr", tmp_path / "elsewhere"
    (toolchain / "bin").mkdir(parents=True)
    elsewhere.mkdir()
    args = ["swiftc", "-o", "snm", "-use-ld=lld"]
    problem, found = linker(args, str(toolchain), path=str(elsewhere))
    assert found is None
    assert "no ld.lld in the Swift toolchain" in problem and "swift.org toolchain" in problem
    for folder in (elsewhere, toolchain / "bin"):
        program = folder / "ld.lld"
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
        assert linker(args, str(toolchain), path=str(elsewhere)) == (None, str(program))
    assert linker(["swiftc", "-o", "snm"], str(toolchain), path=str(elsewhere)) == (None, None)
