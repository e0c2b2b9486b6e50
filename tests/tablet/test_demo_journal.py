"""The demo starts each run on a fresh journal (demo/common.py `fresh_db` calls
tablet_app.journal.discard): nothing of the last run's files may be left for the new journal to be
checked against."""
from tablet_app.controller import Controller
from tablet_app.journal import discard
from tests.tablet.conftest import SESSION


def test_a_fresh_demo_journal_opens_after_a_run_that_left_all_its_files(tmp_path, clock):
    work = tmp_path / "demo"
    work.mkdir()
    db = work / "tablet.db"
    ctl = Controller(db, clock=clock)
    ctl.setup(SESSION)
    for seat, call in (("N", "1C"), ("E", "P")):
        clock.advance(2)
        assert ctl.box_event(seat, "call", call=call)["ok"]
    ctl.journal.conn.close()  # the last run stopped without closing (Ctrl-C): its -wal and marks stay
    left = sorted(p.name for p in work.iterdir())
    assert len(left) > 1, left
    discard(db)
    again = Controller(db, clock=clock)
    assert again.session is None and again.journal.count() == 0
    again.close()
