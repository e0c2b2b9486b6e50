"""Which file the `.bws` path names (station/bws/fileid.py): the pure decisions, case by case."""
from typing import Any

from station.bws import fileid


def changes(before: fileid.Seen, now: fileid.Seen, emptied: bool) -> list[str]:
    """What changed, in English (each is a notice: station/notices.py)."""
    return [str(x) for x in fileid.changes(before, now, emptied)]


def seen(**over) -> fileid.Seen:
    base: dict[str, Any] = {"dev": 1, "ino": 100, "size": 8192, "mtime_ns": 5_000, "marker": [["Mandag", "2026-11-23", "G1"]],
            "wrote": True}
    return fileid.Seen(**(base | over))


def test_the_file_the_station_left_is_no_replacement_whatever_the_scorer_did_to_it():
    # The scoring program marked results Processed: the file grew and is newer.
    assert changes(seen(), seen(size=12288, mtime_ns=9_000), emptied=False) == []


def test_each_sign_of_another_file_is_named():
    assert changes(seen(), seen(ino=101), emptied=False) == [
        "the path names another file (re-created, copied in or restored)"]
    assert changes(seen(), seen(size=4096, mtime_ns=9_000), emptied=False) == [
        "it got shorter (8192 -> 4096 bytes)"]
    assert changes(seen(), seen(mtime_ns=4_000), emptied=False) == [
        "its modification time went back (an older copy put in its place)"]
    assert changes(seen(), seen(marker=[["Mandag", "2026-11-23", "G2"]]), emptied=False) == [
        "its Session rows changed (Mandag 2026-11-23 G1 -> Mandag 2026-11-23 G2)"]
    assert changes(seen(), seen(), emptied=True) == ["it has none of the rows the station wrote"]
    assert changes(seen(wrote=False), seen(), emptied=True) == []  # nothing of the station's to miss
    assert changes(seen(suspect=True), seen(), emptied=False) == [
        "it was missing or unreadable at an earlier look"]
    # No file index (a network share): the inode says nothing.
    assert changes(seen(ino=0), seen(ino=0), emptied=False) == []


def test_another_session_is_its_name_or_date_not_its_guid():
    old = [["Mandag", "2026-11-23", "G1"]]
    assert fileid.other_session(old, [["Mandag", "2026-11-23", "G2"]]) is None
    assert fileid.other_session(old, []) is None  # a file without a Session table says nothing
    assert str(fileid.other_session(old, [["Mandag", "2026-11-30", "G1"]])) == (
        "the file names another session (Mandag 2026-11-23 G1 -> Mandag 2026-11-30 G1)")


def test_what_the_new_movement_would_not_take_as_it_was_played():
    earlier = {("A", 1, 1): (1, 5, 1, 2), ("A", 2, 1): (2, 6, 3, 4), ("A", 3, 1): (3, 7, 5, 6),
               ("A", 4, 1): (4, 8, 7, 8)}
    now = {("A", 1, 1): (1, 5, 1, 2), ("A", 2, 1): (2, 7, 3, 4), ("A", 4, 1): (4, 8, 9, 10)}
    # Board 9 at table 1 was outside the earlier range too: not a difference the new file makes.
    boards = [("A", 1, 1, 1), ("A", 2, 1, 3), ("A", 3, 1, 5), ("A", 4, 1, 7), ("A", 1, 1, 9)]
    assert [str(x) for x in fileid.misfits(earlier, now, boards)] == [
        "section A table 2 round 1 board 3: played by NS 2 v EW 6, the new file has NS 2 v EW 7",
        "section A table 3 round 1 board 5: the new file has no table 3 in round 1",
        "section A table 4 round 1 board 7: the new file has boards 9-10 there"]


def test_the_page_shows_the_tds_command_without_a_database_password():
    from station.bws.takeover import Watch

    assert Watch(None, "G", "x.bws", "postgresql://club:s3cret@db.local:5432/station").db == \
        "postgresql://club@db.local:5432/station"
    assert Watch(None, "G", "x.bws", "station.db").db == "station.db"
