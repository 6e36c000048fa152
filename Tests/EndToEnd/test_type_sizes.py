"""scripts/type-sizes --check, the lint step that keeps a type from doing several jobs: a type's
declaration and all its extensions are summed across files, and the sum is held to a budget."""
import subprocess

from conftest import ROOT

TOOL = ROOT / "scripts" / "type-sizes"


def sizes(*args, cwd=None):
    return subprocess.run([str(TOOL), *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def budgets(folder, text=""):
    path = folder / "budgets.txt"
    path.write_text(text)
    return str(path)


def write_type(folder, name, files, lines_each):
    for index in range(files):
        body = "\n".join(f"  var v{i}: Int {{ {i} }}" for i in range(lines_each))
        keyword = "struct" if index == 0 else "extension"
        (folder / f"{name}+{index}.swift").write_text(
            f"// a comment that does not count\n{keyword} {name} {{\n\n{body}\n}}\n")


def test_the_sources_are_within_their_budgets():
    done = sizes("--check", "--top", "0", cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_a_type_over_budget_across_small_files_fails(tmp_path):
    # Thirteen files of 100 lines each: no file is large, the type is.
    write_type(tmp_path, "Everything", files=13, lines_each=98)
    write_type(tmp_path, "Small", files=2, lines_each=10)
    done = sizes("--check", "--budgets", budgets(tmp_path), str(tmp_path))
    assert done.returncode == 1
    assert "Everything: 1300 lines, over the budget (1200)" in done.stderr
    assert "Small" not in done.stderr
    assert done.stdout.splitlines()[0].split() == ["1300", "Everything", "(13", "files)"]


def test_a_type_within_budget_passes(tmp_path):
    write_type(tmp_path, "Focused", files=11, lines_each=98)
    done = sizes("--check", "--budgets", budgets(tmp_path), str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "1100  Focused  (11 files)" in done.stdout


def test_a_named_exception_holds_to_its_ceiling(tmp_path):
    write_type(tmp_path, "Grammar", files=13, lines_each=98)
    named = budgets(tmp_path, "# why\nGrammar 1400 one file per area of the grammar\n")
    assert sizes("--check", "--budgets", named, str(tmp_path)).returncode == 0
    tight = budgets(tmp_path, "Grammar 1250 one file per area of the grammar\n")
    done = sizes("--check", "--budgets", tight, str(tmp_path))
    assert done.returncode == 1
    assert "Grammar: 1300 lines, over its ceiling in budgets.txt (1250)" in done.stderr


def test_an_exception_for_a_type_that_is_gone_fails(tmp_path):
    write_type(tmp_path, "Focused", files=1, lines_each=10)
    stale = budgets(tmp_path, "Gone 2000 split long ago\n")
    done = sizes("--check", "--budgets", stale, str(tmp_path))
    assert done.returncode == 1
    assert "Gone: named in budgets.txt but no longer in the sources" in done.stderr
