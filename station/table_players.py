"""Player numbers entered at the tables (the `players` item, shared_rules/records/players.py):
looked up for the tablet, seated in the exports, and given to the scoring program.

- `lookup`: the names the scoring program gave the numbers, for the tablet to show back
  (GET /api/v1/players): its Data Connector player data, else the `.bws` `PlayerNames` (the
  club's register BCS looks numbers up in), else none (unknown: a guest, a new member).
- `seated`: the entries of a session as participations (`station/players.py` reads them as the
  scoring program's): per table and round, the latest number entered for each seat. An entry in
  the section's first round seats the pair's players for the session (they follow the pair), a
  later round's that round only, as the Data Connector's participations do.
- `poll`/`accept`: the Data Connector's participation (21, 25, 29) and player-data (20, 24, 28)
  queues, filled with what the tables entered (one ParticipationDTO per seat, by number only as
  the client's documentation requires; one PlayerDataDTO per number, with the names known).
- `may_post`: a table enters numbers only for a round the movement gives it.

Pure reads of the store apart from the queue marks; docs/station.md "Player numbers".
"""
from __future__ import annotations

import json
from typing import Any

from .movement import item_session, session_slots
from .session_scope import stored_object
from .stored import COLUMNS, read_rows

PLAYERS = "players"
DIRECTION = {"N": 1, "E": 2, "S": 3, "W": 4}


def may_post(store: Any, event: str, section: str, table_no: int, round_no: int | None) -> str | None:
    """Why a table may not send player numbers for this round, or None (a table set up by hand
    without the scoring program's movement: any round)."""
    ref = item_session(store, event, section)
    if ref is None:
        return None
    slots = session_slots(store, ref.guid, section, table_no)
    if slots and not any(s.round == round_no for s in slots):
        return (f"table {section}{table_no} has no round {round_no} in the scoring program's movement: "
                "enter the numbers at the round the table is playing")
    return None


def _register(store: Any, guid: str) -> dict[str, str]:
    """The `.bws` PlayerNames of the session (number -> name), {} for a Data Connector session."""
    from .bws.session import register  # the .bws modules when a lookup needs them, not at the station's start

    rows = store.query("SELECT payload FROM dc_sessions WHERE session_guid = ?", (guid,))
    payload = stored_object(rows[0][0]) if rows else {}
    if payload.get("source") != "bws" or not isinstance(payload.get("player_names"), list):
        return {}
    return {n: " ".join(name.split()) for n, name in
            register({"player_names": [r for r in payload["player_names"] if isinstance(r, dict)]}).items()}


def names(store: Any, guid: str | None, numbers: list[str]) -> dict[str, tuple[str | None, str] | None]:
    """number -> (first name, last name) the scoring program gave it, None when unknown."""
    from .bws.session import split_name

    if guid is None:
        return {n: None for n in numbers}
    known = store.players(guid)
    register = _register(store, guid)
    out: dict[str, tuple[str | None, str] | None] = {}
    for n in numbers:
        p = known.get(n)
        if p and (p.get("first_name") or p.get("last_name")):
            out[n] = (p.get("first_name") or None, p.get("last_name") or "")
        elif n in register:
            first, last = split_name(register[n])
            out[n] = (first or None, last)
        else:
            out[n] = None
    return out


def lookup(store: Any, guid: str | None, numbers: list[str]) -> dict[str, str | None]:
    """number -> the name to show at the table ("Anna Berg"), None when unknown."""
    return {n: (" ".join(x for x in who if x) if who else None) for n, who in names(store, guid, numbers).items()}


def _entries(items: list[dict], sections: set[str] | None = None) -> list[dict]:
    """The stored entries in the order the tables made them (per table and round by entry)."""
    chosen = [it for it in items if sections is None or it["payload"].get("section") in sections]
    return sorted(chosen, key=lambda it: (it["payload"]["section"], it["payload"]["table"], it["payload"]["round"],
                                          it["payload"]["entry"], it["id"]))


def seated(store: Any, tablet_event: str, guid: str | None) -> list[dict]:
    """The session's entries as participation rows (`Store.participations`' form), the latest
    number for each seat of each table and round."""
    latest: dict[tuple, dict] = {}
    for it in _entries(store.items(tablet_event, PLAYERS)):
        p = it["payload"]
        for seat, number in p["numbers"].items():
            latest[(p["section"], p["table"], p["round"], seat)] = {
                "section": p["section"], "table": p["table"], "round": p["round"], "direction": seat,
                "number": number}
    found = names(store, guid, sorted({r["number"] for r in latest.values()}))
    rows = []
    for row in latest.values():
        who = found.get(row["number"])
        rows.append({**row, "first_name": who[0] if who else None, "last_name": who[1] if who else None,
                     "country_code": None})
    return rows


# -- the Data Connector's queues --------------------------------------------------------------
def poll(st: Any, command: int, event: str, session: str) -> dict:
    """A participation or player-data poll (new: not yet accepted; all: everything)."""
    from . import dataconnector as dc

    data_type = dc.PARTICIPATIONS if command in (dc.POLL_NEW_PARTICIPATIONS, dc.POLL_ALL_PARTICIPATIONS) \
        else dc.PLAYERDATA
    sections = dc.session_sections(st, session)
    if command in (dc.POLL_ALL_PARTICIPATIONS, dc.POLL_ALL_PLAYERDATA):
        items = _entries(st.store.items(event, PLAYERS), sections)
    else:
        rows = st.store.query(
            f"SELECT {COLUMNS} FROM items i WHERE event = ? AND kind = ? "
            "AND NOT EXISTS (SELECT 1 FROM dc_accepted a WHERE a.session_guid = ? AND a.data_type = ? "
            "AND a.item_id = i.id) ORDER BY id", (event, PLAYERS, session, data_type))
        items = _entries(read_rows(rows)[0], sections)
    dtos = _participations(items, session) if data_type == dc.PARTICIPATIONS else \
        _player_data(st, items, session)
    with st.store.transaction() as tx:
        if command in (dc.POLL_NEW_PARTICIPATIONS, dc.POLL_NEW_PLAYERDATA):
            tx.execute("DELETE FROM dc_polled WHERE session_guid = ? AND data_type = ?", (session, data_type))
            tx.executemany("INSERT INTO dc_polled (session_guid, data_type, item_id) VALUES (?, ?, ?)",
                           [(session, data_type, it["id"]) for it in items])
        dc._note_read(tx, session, data_type, "polled_at")
    last = max((it["id"] for it in items), default=0)
    return dc._reply(command, data_type, raw=json.dumps(dtos), session=session, last_id=last)


def _participations(items: list[dict], session: str) -> list[dict]:
    # the client's types with the Data Connector's poll, not at the station's start
    from bridgemate_dataconnector.dto import ParticipationDTO, TableDirection

    out = []
    for it in items:
        p = it["payload"]
        for seat, number in p["numbers"].items():
            out.append(ParticipationDTO(session_guid=session, section_letters=p["section"], table_number=p["table"],
                                        direction=TableDirection(DIRECTION[seat]), round_number=p["round"],
                                        player_number=number).to_dict())
    return out


def _player_data(st: Any, items: list[dict], session: str) -> list[dict]:
    from bridgemate_dataconnector.dto import PlayerDataDTO  # with the Data Connector's poll, as above

    numbers = list(dict.fromkeys(n for it in items for n in it["payload"]["numbers"].values()))
    found = names(st.store, session, numbers)
    club = st.store.query("SELECT payload FROM dc_sessions WHERE session_guid = ?", (session,))
    club_id = str(stored_object(club[0][0]).get("ClubId") or "") or None if club else None
    out = []
    for n in numbers:
        who = found.get(n)
        out.append(PlayerDataDTO(session_guid=session, club_id=club_id, player_number=n,
                                 first_name=who[0] if who else None, last_name=who[1] if who else None).to_dict())
    return out


def accept(st: Any, command: int, session: str, last_id: int) -> int:
    from . import dataconnector as dc

    data_type = dc.PARTICIPATIONS if command == dc.ACCEPT_PARTICIPATIONS else dc.PLAYERDATA
    return dc._accept(st, session, data_type, last_id)
