"""A journal written by an earlier version of the tablet, and what that version made of it.

`tests/tablet/data/evening.db` was written by the controller as it stood before it was split
into parts (one class, one `elif` reducer), by `write_evening` below; `evening.json` beside it
holds what that controller showed when it replayed the journal: the whole table at the end
(`observe`), a digest of the table after every committed transaction (each such prefix of the
journal replayed on its own: a state the file could have been left in), and what it queued for the station when it went on from the replayed table
(`go_on`). `tests/tablet/test_old_journal.py` requires the same of today's controller: an old
journal opens and replays to the same table, and the live path continues where it stood.

The evening covers every journal record kind: three rounds (dbf-2017, fsb-2007, wbf screens),
stop cards, box resends, refusals, a box's TD key and UNDO, an insufficient bid, a call out of
rotation, wrong PINs, the director's rulings (L25A, L24, 2007 L15C with a cancelled board, an
artificial score), a disputed result, a correction, a withdrawn and a moved result, a tray that
passes under the screen, and a round end; it ends frozen on a call out of rotation.

Regenerate (only from a version whose replay is trusted):
    python -m tests.tablet.old_journal tests/tablet/data
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import sqlite3
import sys
from typing import Any

PIN = "4321"
START = 1_763_800_000.0
ROUND1 = {"event": "club-2026-11-22", "section": "A", "table": 3, "round": 1, "boards": [1, 2, 3, 4, 5],
          "ns_pair": 1, "ew_pair": 8, "profile": "dbf-2017", "policy": "record", "td_pin": PIN, "tables": 5}
ROUND2 = {**ROUND1, "round": 2, "boards": [6, 7], "ns_pair": 1, "ew_pair": 7, "profile": "fsb-2007", "td_pin": ""}
ROUND3 = {**ROUND1, "round": 3, "boards": [9, 10], "ew_pair": 6, "profile": "wbf-screens-2017", "td_pin": ""}


class Clock:
    def __init__(self, t: float = START):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


def canonical(x: Any) -> Any:
    """The value as JSON would carry it (tuples as lists), for an exact comparison."""
    return json.loads(json.dumps(x, sort_keys=True))


def digest(x: Any) -> str:
    return hashlib.sha256(json.dumps(canonical(x), sort_keys=True).encode()).hexdigest()


# The setup's fields when the journal was written. A field added to the setup since cannot be in an
# old journal: the replayed table must show its default, and the old version did not show it.
SESSION_FIELDS = ("boards", "event", "ew_pair", "movement", "next_positions", "no_alerts_by", "ns_pair",
                  "pairs_per_direction", "policy", "profile", "round", "section", "settings", "table", "tables",
                  "td_pin", "tray_delay_s")


# What a snapshot says that the version which wrote the journal did not, at the value it must have
# for an old journal (nobody signed in on the console: the sitting is memory only).
ADDED_SINCE = {"director": {"signed_in": False, "grace_s": 0, "grace_setting": 0}}


def as_written(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot with the session's fields and the keys of the version that wrote the journal.
    A key added since (`players`: the member numbers entered, none in an old journal) must show
    nothing entered and nothing waiting."""
    import dataclasses

    from tablet_app.session import Session

    snapshot = dict(snapshot)
    for k, v in ADDED_SINCE.items():
        assert snapshot.pop(k) == v, f"snapshot key {k} added since is not {v!r}"
    players = snapshot.get("players")
    assert players is None or (players["waiting"] is None and players["entered"] == {}), players
    snapshot.pop("players", None)
    session = snapshot.get("session")
    if session is None:
        return dict(snapshot)
    defaults = {f.name: f.default for f in dataclasses.fields(Session)}
    for k, v in session.items():
        if k not in SESSION_FIELDS:
            assert k in defaults and v == defaults[k], f"setup field {k} added since is {v!r}, not its default"
    return {**snapshot, "session": {k: v for k, v in session.items() if k in SESSION_FIELDS}}


def observe(ctl: Any) -> dict[str, Any]:
    """Everything a screen, a box or the TD reads from the table, as plain data."""
    boards = list(ctl.board_events) if ctl.session is not None else []
    snap = dict(ctl.snapshot())
    # the old version's `state` was the engine's whole state, now `director_state` (with screens
    # `state` is what all four players may see: tablet_app/screen_view.py, tested apart)
    snap["state"] = snap.pop("director_state", snap.get("state"))
    return canonical({
        "snapshot": as_written(snap),
        "views": ctl.views(),
        "tempo": ctl.tempo(),
        "log": ctl.log,
        "played": ctl.played(),
        "open_td_calls": ctl.open_td_calls(),
        "held": ctl.held(),
        "table_logs": {str(b): ctl.table_log(b) for b in boards},
        "board": ctl.board,
        "phase": ctl.phase,
        "last_t": ctl.last_t,
    })


def outbox(conn: sqlite3.Connection, after: int = 0) -> list[list[Any]]:
    rows = conn.execute("SELECT id, item_key, kind, payload FROM outbox WHERE id > ? ORDER BY id", (after,))
    return [[k, kind, json.loads(p)] for _id, k, kind, p in rows.fetchall()]


def last_outbox_id(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0])


def prefix_copy(src: pathlib.Path, dst: pathlib.Path, n: int) -> None:
    """A copy of the journal holding its first n records (and the whole outbox), chained as the
    version that wrote it left them: as if the tablet had stopped after record n."""
    shutil.copy(src, dst)
    conn = sqlite3.connect(dst)
    chain = conn.execute("SELECT chain FROM journal WHERE seq = ?", (n,)).fetchone()[0]
    conn.execute("DELETE FROM journal WHERE seq > ?", (n,))
    conn.execute("UPDATE head SET seq = ?, chain = ?", (n, chain))
    conn.commit()
    conn.close()


# -- the evening ---------------------------------------------------------------------------------
def _call(ctl: Any, clock: Clock, seat: str, call: str, seq: int, think: float = 2.0,
          ok: bool | None = True) -> None:
    """A box call (ok None: whatever the table makes of it, refused or not)."""
    clock.advance(think)
    r = ctl.box_event(seat, "call", call=call, seq=seq, box_ms=seq * 1000, epoch=1)
    assert ok is None or r["ok"] is ok, (seat, call, r)


def _result(ctl: Any, clock: Clock, tricks: int | None, lead: str | None = None) -> None:
    clock.advance(300)
    ctl.enter_result(tricks, lead)
    clock.advance(5)
    ctl.ew_confirm(True)


def _round1(ctl: Any, clock: Clock) -> None:
    ctl.setup(ROUND1)
    seq = iter(range(1, 10_000))
    # board 1 (N deals): a stop card, a box's resend, a disputed result
    clock.advance(3)
    assert ctl.box_event("N", "stop", seq=next(seq), box_ms=500, epoch=1)["ok"]
    _call(ctl, clock, "N", "2H", next(seq))
    assert ctl.box_event("N", "call", call="2H", seq=2, box_ms=2000, epoch=1)["duplicate"]
    for seat, call in (("E", "P"), ("S", "4H"), ("W", "P"), ("N", "P"), ("E", "P")):
        _call(ctl, clock, seat, call, next(seq))
    _call(ctl, clock, "S", "P", next(seq), ok=False)  # the auction is over
    clock.advance(400)
    ctl.enter_result(9, "SA")
    ctl.ew_confirm(False)
    _result(ctl, clock, 10, "SA")
    # the players put board 3 on the table instead of board 2 (S deals)
    ctl.choose_board(3)
    _call(ctl, clock, "S", "1NT", next(seq))
    _call(ctl, clock, "W", "1S", next(seq))  # insufficient: the table freezes (2017 L27)
    _call(ctl, clock, "E", "2C", next(seq), ok=False)  # only the LHO (North) may accept
    clock.advance(30)
    try:
        ctl.td_decide("0000", "replace", call="2S")
    except ValueError:
        pass
    ctl.td_decide(PIN, "replace", call="2S")
    pending = ctl.estate["pending"]
    if pending:  # the replacement's consequence (2017 L27B1(a) or similar)
        ctl.td_decide(PIN, pending["options"][0]["id"])
    assert ctl.phase == "auction", ctl.estate
    clock.advance(2)
    ctl.box_event("N", "td", seq=next(seq), box_ms=1, epoch=1)  # the TD key
    _call(ctl, clock, "N", "3NT", next(seq), ok=False)  # held: the table waits for the director
    clock.advance(20)
    assert ctl.td_attended(PIN)
    for seat, call in (("N", "3NT"), ("E", "P"), ("S", "P"), ("W", "P")):
        _call(ctl, clock, seat, call, next(seq))
    _result(ctl, clock, 9, "HK")
    # board 2 (E deals): UNDO after a confirmed call, the TD's L25A correction, then an
    # artificial adjusted score
    assert ctl.board == 2, ctl.board
    _call(ctl, clock, "E", "1D", next(seq))
    clock.advance(1)
    ctl.box_event("E", "undo", seq=next(seq), box_ms=2, epoch=1)
    clock.advance(25)
    ctl.td_correct_call(PIN, "E", "1H")
    assert ctl.td_attended(PIN)
    _call(ctl, clock, "S", "P", next(seq))
    clock.advance(60)
    ctl.td_artificial_score(PIN, "avg+", "avg-", "2017 L12C2")
    # board 4 (W deals): passed out
    assert ctl.board == 4, ctl.board
    for seat in "WNES":
        _call(ctl, clock, seat, "P", next(seq))
    _result(ctl, clock, None)
    # board 5 is on the table; the director corrects board 1, withdraws board 4, and moves
    # board 3's result to board 4 (the boards were mixed up)
    clock.advance(30)
    ctl.td_correct_result(PIN, 1, 11, reason="declarer claimed 11", by="TD Anna")
    ctl.td_withdraw_result(PIN, 4, reason="played at the wrong table")
    ctl.td_move_result(PIN, 3, 4, reason="board 4 was played, not board 3")
    assert ctl.board == 5, ctl.board  # (N deals)
    for seat, call in (("N", "1C"), ("E", "1H"), ("S", "X"), ("W", "P"), ("N", "1S"), ("E", "P"),
                       ("S", "4S"), ("W", "P"), ("N", "P"), ("E", "P")):
        _call(ctl, clock, seat, call, next(seq))
    _result(ctl, clock, 10, "D2")
    # board 3 again (S deals), passed out: the round ends
    assert ctl.board == 3, ctl.board
    for seat in "SWNE":
        _call(ctl, clock, seat, "P", next(seq))
    _result(ctl, clock, None)
    assert ctl.phase == "round_end"


def _round2(ctl: Any, clock: Clock) -> None:
    clock.advance(600)
    ctl.setup(ROUND2)  # the PIN carries over
    seq = iter(range(100, 10_000))
    # board 6 (E deals): cards exposed (L24), the wrong board (2007 L15C), a repeated call
    # that differs: the board is cancelled and the TD awards an artificial score
    _call(ctl, clock, "E", "1H", next(seq))
    _call(ctl, clock, "S", "P", next(seq))
    clock.advance(5)
    ctl.td_exposed_cards(PIN, "W", ["SK"], led=False)
    pending = ctl.estate["pending"]
    while pending:
        ctl.td_decide(PIN, pending["options"][0]["id"])
        pending = ctl.estate["pending"]
    clock.advance(5)
    ctl.td_wrong_board(PIN)
    _call(ctl, clock, "E", "1S", next(seq))  # East had bid 1H
    clock.advance(10)
    ctl.td_cancel_board(PIN, "East bid 1S where he had bid 1H")
    clock.advance(10)
    ctl.td_artificial_score(PIN, "avg", "avg", "2007 L15C")
    # board 7 (S deals): a stop card and a call made with it; a call from the wrong board
    assert ctl.board == 7, ctl.board
    clock.advance(1)
    ctl.box_event("S", "stop", seq=next(seq), box_ms=3, epoch=1)
    _call(ctl, clock, "S", "2S", next(seq), think=1.0)
    _call(ctl, clock, "W", "P", next(seq), think=1.0, ok=None)  # inside the stop wait
    _call(ctl, clock, "W", "P", next(seq), think=12.0, ok=None)
    clock.advance(3)
    with_wrong = ctl.phase in ("auction",)
    if with_wrong:
        ctl.td_wrong_board_call(PIN, "S")
        pending = ctl.estate["pending"]
        while pending:
            ctl.td_decide(PIN, pending["options"][0]["id"])
            pending = ctl.estate["pending"]
    while ctl.phase == "auction":
        _call(ctl, clock, ctl.estate["next"], "P", next(seq), ok=None)
    if ctl.phase == "play":
        _result(ctl, clock, 8 if ctl.estate.get("contract") else None)
    if ctl.phase != "round_end":
        clock.advance(30)
        ctl.td_artificial_score(PIN, "avg", "avg", "2007 L12C2")
    assert ctl.phase == "round_end"


def _round3(ctl: Any, clock: Clock) -> None:
    clock.advance(600)
    ctl.setup(ROUND3)
    seq = iter(range(300, 10_000))
    # board 9 (N deals), screenmates N-E / S-W: the tray passes, an alert to the screenmate, a
    # call out of rotation behind the screen
    _call(ctl, clock, "N", "1C", next(seq))
    _call(ctl, clock, "E", "P", next(seq))
    clock.advance(14)
    assert ctl.tick()  # the tray passes to South-West
    _call(ctl, clock, "S", "1D", next(seq))
    clock.advance(1)
    ctl.box_event("S", "alert", seq=next(seq), box_ms=4, epoch=1)
    _call(ctl, clock, "W", "P", next(seq))
    clock.advance(16)
    ctl.tick()
    _call(ctl, clock, "E", "1S", next(seq))  # North's turn: out of rotation
    assert ctl.phase == "frozen", ctl.phase
    clock.advance(7)


def write_evening(db: pathlib.Path) -> tuple[Clock, list[int]]:
    """The evening's journal at `db`; returns the clock at its end and the last record of every
    committed transaction (the states the file could ever be found in)."""
    import contextlib

    from tablet_app.controller import Controller

    clock = Clock()
    ctl = Controller(db, clock=clock)
    journal = ctl.journal
    commits: list[int] = []
    transaction = journal.transaction

    @contextlib.contextmanager
    def noting() -> Any:
        outer = not journal._depth
        with transaction() as conn:
            yield conn
        if outer and journal.count() and (not commits or commits[-1] != journal.count()):
            commits.append(journal.count())

    journal.transaction = noting  # type: ignore[method-assign]  # noting each commit
    _round1(ctl, clock)
    _round2(ctl, clock)
    _round3(ctl, clock)
    ctl.close()
    return clock, commits


def go_on(ctl: Any, clock: Clock) -> None:
    """What the director and the players do after the restart: the live path from the
    replayed table (its items for the station must continue the numbering)."""
    pending = ctl.estate["pending"]
    ctl.td_decide(PIN, pending["options"][0]["id"])
    while ctl.estate["pending"]:
        ctl.td_decide(PIN, ctl.estate["pending"]["options"][0]["id"])
    n = 900
    while ctl.phase == "auction":
        clock.advance(16)
        ctl.tick()
        n += 1
        r = ctl.box_event(ctl.estate["next"], "call", call="P", seq=n, box_ms=n, epoch=2)
        assert r["ok"] or "tray" in (r["reason"] or ""), r
    if ctl.phase == "play":
        _result(ctl, clock, 7 if ctl.estate.get("contract") else None)
    ctl.box_event("W", "td", seq=n + 1, box_ms=1, epoch=2)
    ctl.td_attended(PIN)


def expected(db: pathlib.Path, end: float, commits: list[int], work: pathlib.Path) -> dict[str, Any]:
    from tablet_app.controller import Controller

    conn = sqlite3.connect(db)
    kinds = [k for (k,) in conn.execute("SELECT kind FROM journal ORDER BY seq")]
    conn.close()
    prefixes = []
    for n in commits:
        copy = work / f"prefix-{n}.db"
        prefix_copy(db, copy, n)
        ctl = Controller(copy, clock=lambda: end)
        prefixes.append([n, kinds[n - 1], ctl.phase, digest(observe(ctl))])
        ctl.close()
        copy.unlink()
    live = work / "go-on.db"
    shutil.copy(db, live)
    clock = Clock(end)
    ctl = Controller(live, clock=clock)
    final = observe(ctl)
    before = last_outbox_id(ctl.journal.conn)
    go_on(ctl, clock)
    after = {"queued": outbox(ctl.journal.conn, before), "table": observe(ctl), "clock": clock.t}
    ctl.close()
    return {"records": len(kinds), "kinds": sorted(set(kinds)), "clock": end, "final": final,
            "prefixes": prefixes, "go_on": after}


def main(out: str) -> None:
    import subprocess
    import tempfile

    target = pathlib.Path(out)
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        db = work / "evening.db"
        clock, commits = write_evening(db)
        data = expected(db, clock.t, commits, work)
        version = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        data["written_by"] = f"main {version}"
        shutil.copy(db, target / "evening.db")
    (target / "evening.json").write_text(json.dumps(data, sort_keys=True, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/tablet/data")
