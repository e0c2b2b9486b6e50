"""Damage in the journal's write-ahead log (tablet.db-wal), as the attack that found the break
made it: SQLite drops every WAL frame from the first one whose checksum fails, so a flipped
bit or a cut in the -wal rolled the table back to its last checkpoint without a word, and the
calls the boxes were told were recorded were gone. Now the journal knows how far it had
committed (its commit mark, `<journal>-mark`) and names the damage.

The journals are real tables: a Controller driven through box events, stopped mid-board (the
records since the last board end only in the -wal), the files copied as a crash leaves them."""
import contextlib
import json
import os
import random
import shutil

import pytest

from tablet_app.controller import Controller
from tablet_app.journal import MARK_SUFFIX, JournalDamaged
from tests.tablet.conftest import Clock
from tests.tablet.test_journal import evening, play, table_of

SUFFIXES = ("", "-wal", MARK_SUFFIX)


def crashed_evening(tmp_path):
    """The evening of test_journal, board 3 bid to its end and its result entered; the files
    as they are on disk while the tablet runs (the -wal holds everything since board 2's end)."""
    clock = Clock()
    live = tmp_path / "live" / "tablet.db"
    live.parent.mkdir()
    ctl = evening(live, clock)
    play(ctl, clock, ["1H", "P", "2H", "P", "P", "P"], dealer="S", seq0=None)
    ctl.enter_result(9, "DA")
    files = {suffix: pathlib_read(str(live) + suffix) for suffix in SUFFIXES}
    seqs = [s for (s,) in ctl.journal.conn.execute("SELECT seq FROM journal ORDER BY seq")]
    ctl.journal.conn.close()  # as a crash leaves it: no checkpoint at close
    assert len(files["-wal"]) > 20_000 and files[MARK_SUFFIX]
    return clock, files, seqs


def pathlib_read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def lay(work, files: dict[str, bytes | None]) -> None:
    for suffix in (*SUFFIXES, "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(work) + suffix)
    for suffix, data in files.items():
        if data is not None:
            with open(str(work) + suffix, "wb") as f:
                f.write(data)


def reference(tmp_path, clock, files) -> str:
    work = tmp_path / "ref" / "tablet.db"
    work.parent.mkdir()
    lay(work, files)
    ctl = Controller(work, clock=clock)
    try:
        return table_of(ctl)
    finally:
        ctl.journal.conn.close()


def outcome(work, clock, files, want: str) -> str:
    """"detected" (JournalDamaged), "harmless" (the very table that was written) or "silent"."""
    lay(work, files)
    try:
        ctl = Controller(work, clock=clock)
    except JournalDamaged as exc:
        assert "recover" in str(exc)
        return "detected"
    try:
        return "harmless" if table_of(ctl) == want else "silent"
    finally:
        ctl.journal.conn.close()


def flipped(data: bytes, pos: int, bit: int) -> bytes:
    out = bytearray(data)
    out[pos] ^= 1 << bit
    return bytes(out)


@pytest.mark.slow
def test_600_bit_flips_and_cuts_in_the_main_file_and_the_wal_are_named_or_harmless(tmp_path):
    clock, files, _ = crashed_evening(tmp_path)
    want = reference(tmp_path, clock, files)
    work = tmp_path / "work" / "tablet.db"
    work.parent.mkdir()
    rnd = random.Random(2026)
    counts: dict[str, dict[str, int]] = {}
    trials = [(name, rnd.randrange(len(files[name])), rnd.randrange(8)) for name in ("", "-wal") for _ in range(300)]
    for name, pos, bit in trials:
        result = outcome(work, clock, {**files, name: flipped(files[name], pos, bit)}, want)
        assert result != "silent", f"a bit flip at byte {pos} of tablet.db{name} rolled the table back silently"
        key = f"flip {name or 'main file'}"
        counts.setdefault(key, {}).setdefault(result, 0)
        counts[key][result] += 1
    wal = files["-wal"]
    frame = 24 + int.from_bytes(wal[8:12], "big")
    cuts = [0, 32, 32 + frame, len(wal) - frame, len(wal) - 1] + [rnd.randrange(len(wal)) for _ in range(7)]
    for cut in cuts:
        result = outcome(work, clock, {**files, "-wal": wal[:cut]}, want)
        assert result == "detected", f"the -wal cut at byte {cut}: {result}"
        counts.setdefault("cut -wal", {}).setdefault(result, 0)
        counts["cut -wal"][result] += 1
    assert outcome(work, clock, {**files, "-wal": None}, want) == "detected"  # the -wal lost
    print(json.dumps(counts))
    assert counts["flip -wal"].get("detected", 0) > 200


def test_a_wal_flip_is_named_with_the_file_and_the_byte_and_recovery_keeps_the_records_before_it(tmp_path):
    clock, files, seqs = crashed_evening(tmp_path)
    wal = files["-wal"]
    frame = 24 + int.from_bytes(wal[8:12], "big")
    pos = 32 + 3 * frame + 24 + 100  # in the page of the WAL's fourth frame
    work = tmp_path / "work" / "tablet.db"
    work.parent.mkdir()
    lay(work, {**files, "-wal": flipped(wal, pos, 3)})
    with pytest.raises(JournalDamaged) as e:
        Controller(work, clock=clock)
    assert e.value.seq is not None and e.value.seq <= seqs[-1]
    assert f"{work}-wal" in e.value.why and f"frame 4 (byte {32 + 3 * frame})" in e.value.why
    # the damaged screen says it in the director's language, the file and byte kept for whoever looks
    from tablet_app.i18n import damage_reason

    for lang, words in (("en", "records that were saved are missing"), ("sv", "poster som sparats saknas"),
                        ("da", "poster, der blev gemt, mangler")):
        assert damage_reason(e.value.why, lang).startswith(words + " (records ")
        assert f"byte {32 + 3 * frame}" in damage_reason(e.value.why, lang)
    # the -wal as it was found is kept (closing the journal let SQLite delete the -wal itself)
    assert pathlib_read(f"{work}-wal.damaged") == flipped(wal, pos, 3)
    again = Controller.recover(work, clock=clock)
    [aside] = [p for p in work.parent.iterdir() if p.name.endswith("-wal.damaged")]
    assert aside.name.startswith("tablet.db.damaged-") and aside.read_bytes() == flipped(wal, pos, 3)
    kept = [s for (s,) in again.journal.conn.execute("SELECT seq FROM journal ORDER BY seq")]
    assert kept == seqs[:e.value.seq - 1]  # every record before the damage, nothing invented
    assert again.log[-1]["what"] == "recovered"
    again.close()
    Controller(work, clock=clock).close()  # the recovered journal opens (its own mark) as it is


def test_a_journal_copied_with_its_mark_but_without_its_wal_is_named_not_opened_shorter(tmp_path):
    clock, files, seqs = crashed_evening(tmp_path)
    work = tmp_path / "copy" / "tablet.db"
    work.parent.mkdir()
    lay(work, {"": files[""], MARK_SUFFIX: files[MARK_SUFFIX]})
    with pytest.raises(JournalDamaged, match=f"committed are missing \\(records \\d+-{seqs[-1]}:") as e:
        Controller(work, clock=clock)
    assert f"the write-ahead log {work}-wal holds nothing" in e.value.why
    # the same copy without the mark is what the journal promises for a copied file: the session
    # up to the last board end (test_journal: test_a_tablet_db_copied_without_its_wal_keeps_the_session)
    lay(work, {"": files[""]})
    Controller(work, clock=clock).journal.conn.close()


def test_a_damaged_mark_is_named_and_recovery_keeps_every_record(tmp_path):
    clock, files, seqs = crashed_evening(tmp_path)
    work = tmp_path / "work" / "tablet.db"
    work.parent.mkdir()
    lay(work, {**files, MARK_SUFFIX: flipped(files[MARK_SUFFIX], 5, 0)})
    with pytest.raises(JournalDamaged, match="commit mark") as e:
        Controller(work, clock=clock)
    assert e.value.seq == seqs[-1] + 1
    again = Controller.recover(work, clock=clock)
    assert [s for (s,) in again.journal.conn.execute("SELECT seq FROM journal ORDER BY seq")] == seqs
    again.close()


def test_the_mark_follows_every_commit_and_a_clean_close(tmp_path):
    clock = Clock()
    db = tmp_path / "tablet.db"
    ctl = evening(db, clock)
    last = ctl.journal._last()[0]
    assert pathlib_read(str(db) + MARK_SUFFIX).split()[0] == str(last).encode()
    ctl.close()
    shutil.copy(db, tmp_path / "copy.db")  # closed: the main file alone holds everything
    shutil.copy(str(db) + MARK_SUFFIX, str(tmp_path / "copy.db") + MARK_SUFFIX)
    Controller(tmp_path / "copy.db", clock=clock).close()


def test_a_journal_chained_again_by_someone_who_left_its_mark_is_caught_by_the_mark(tmp_path):
    """An edit re-chained from the edited record to the end holds its own chain; the commit
    mark still names the chain that was recorded."""
    import sqlite3

    from tablet_app.journal import chain_of

    clock = Clock()
    db = tmp_path / "tablet.db"
    evening(db, clock).close()
    conn = sqlite3.connect(db)
    seq, body = next((s, b) for s, b in conn.execute("SELECT seq, body FROM journal WHERE kind = 'event'")
                     if '"call":"2S"' in b)
    conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (body.replace('"2S"', '"3S"'), seq))
    prev = conn.execute("SELECT chain FROM journal WHERE seq = ?", (seq - 1,)).fetchone()[0]
    for s, kind, text in conn.execute("SELECT seq, kind, body FROM journal WHERE seq >= ? ORDER BY seq",
                                      (seq,)).fetchall():
        prev = chain_of(prev, s, kind, text)
        conn.execute("UPDATE journal SET chain = ? WHERE seq = ?", (prev, s))
    conn.execute("UPDATE head SET chain = ?", (prev,))
    conn.commit()
    conn.close()
    last = int(pathlib_read(str(db) + MARK_SUFFIX).split()[0])
    with pytest.raises(JournalDamaged, match=f"not the ones that were committed \\(record {last}'s") as e:
        Controller(db, clock=clock)
    assert e.value.seq is None  # which record was edited is unknown: none is vouched for
