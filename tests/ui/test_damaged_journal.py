"""A damaged journal made the app exit 1 with nothing on screen. Now `python -m
tablet_app.app` on an edited journal shows the damage and its reason on the tablet, in the
director's language, and Recover goes on from the records before it (tests/ui/drive_damaged.py)."""
import pytest

from tests.ui.conftest import run_driver

pytestmark = pytest.mark.ui


def test_an_edited_journal_is_shown_on_screen_and_recovered_from_the_records_before_it(xvfb_display, tmp_path):
    c = run_driver("drive_damaged.py", tmp_path, xvfb_display)
    assert c["screen"] == "damaged"
    assert "The tablet's journal is damaged" in c["texts"]
    assert f"First bad record: record {c['edited_seq']}" in c["texts"]
    assert "Reason: a record was changed or damaged (its checksum does not match)" in c["texts"]
    sv = c["texts_sv"]["journal-damaged"]
    assert "Orsak: en post har ändrats eller skadats (kontrollsumman stämmer inte)" in sv
    # Recover: the table from the records before the edited 1NT, the damaged file kept aside
    assert c["after"] == ["auction", ["1C", "P"], 1]
    assert c["note"].startswith("Recovered: 4 records kept; the damaged file is at ")
    # one journal kept aside, with its commit mark (tablet_app/journal.py `recover`)
    assert c["aside"].count("tablet.db.damaged") == 1 and "tablet.db.damaged-mark" in c["aside"]
    assert set(c["aside"]) <= {"tablet.db.damaged", "tablet.db.damaged-mark", "tablet.db.damaged-wal"}
    assert c["rc"] == 0
