"""The golden helpers themselves (script_golden.check_golden, which the script and shell-output
goldens both go through): a recording run writes the file and fails, as the Swift snapshot helper
does, so RECORD_SNAPSHOTS=1 can never land green; a comparing run fails on a difference."""
import pytest

import script_golden


def test_recording_writes_the_golden_and_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(script_golden, "RECORD", True)
    golden = tmp_path / "out.txt"
    with pytest.raises(AssertionError, match="RECORD_SNAPSHOTS=1 never passes"):
        script_golden.check_golden(golden, "new text\n")
    assert golden.read_text() == "new text\n"


def test_comparing_passes_on_the_same_text_and_fails_on_another(tmp_path, monkeypatch):
    monkeypatch.setattr(script_golden, "RECORD", False)
    golden = tmp_path / "out.txt"
    with pytest.raises(AssertionError, match="no golden file"):
        script_golden.check_golden(golden, "text\n")
    golden.write_text("text\n")
    script_golden.check_golden(golden, "text\n")
    with pytest.raises(AssertionError, match=r"(?s)differs from .*-text\n\+other"):
        script_golden.check_golden(golden, "other\n")
