"""USEBIO 1.2 XML of a teams event: pure functions over plain data (no store, no I/O).

The layout is the one USEBIO team readers take (ImportUsebio, marcshearer/ImportUsebio `Usebio
Parser.swift`; BridgeScore, marcshearer/BridgeScore `Import Usebio.swift`):
- `<EVENT EVENT_TYPE="TEAMS">` with `BOARD_SCORING_METHOD` `IMPS` and `MATCH_SCORING_METHOD`
  `VPS` (or `IMPS` when the match score is IMPs only), `WINNER_TYPE` 1;
- `PARTICIPANTS` of `<TEAM TEAM_ID="n" TEAM_NAME="...">`, each with `PLACE` (`1=` for a tie),
  `TOTAL_SCORE` (VPs, or IMPs) and its four `PLAYER`s (`PLAYER_NAME`, `NATIONAL_ID_NUMBER`);
- one `MATCH` per match: `ROUND_NUMBER`, `TEAM` (the home team) and `OPPOSING_TEAM`,
  `TEAM_SCORE` / `OPPOSING_TEAM_SCORE` (the IMPs each team won, as scorers show a match: 24 and
  18, not the net +6 and -6), `TEAM_VICTORY_POINTS` / `OPPOSING_TEAM_VICTORY_POINTS` once the
  match is complete, then a `BOARD` per board with
  `BOARD_NUMBER`, `IMPS` (the home team's) and two `TRAVELLER_LINE`s: the room where the home
  team sits North-South first (`DIRECTION` NS: the home team's direction on the line, as
  BridgeScore reads it), then the other (`DIRECTION` EW); team numbers in `NS_PAIR_NUMBER` and
  `EW_PAIR_NUMBER`; a walk-over (FSB L109A) has its scores and VPs and no `BOARD`;
- a bye (FSB 96B) is a `MATCH` with `ROUND_NUMBER`, `TEAM` and `TEAM_VICTORY_POINTS` only: the
  readers take a match's elements one by one, and one without `OPPOSING_TEAM` and scores counts
  for no win or draw in ImportUsebio (`calculateWinDraw` needs both scores); the bye's VPs are in
  the team's `TOTAL_SCORE`;
- the `HANDSET` after the `EVENT`, as in the pairs files.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from .usebio import DOCTYPE, _sub, handset_element, place_labels, result_cells


def _team(parent: ET.Element, team: dict, place: str) -> None:
    el = _sub(parent, "TEAM", TEAM_ID=str(team["number"]), TEAM_NAME=team["name"])
    _sub(el, "PLACE", place)
    _sub(el, "TOTAL_SCORE", team["total"])
    _sub(el, "BOARDS_PLAYED", team["boards"])
    for player in (list(team.get("players") or []) + [None] * 4)[:4]:
        pl = _sub(el, "PLAYER")
        _sub(pl, "PLAYER_NAME", (player or {}).get("full_name") or "Unknown player")
        _sub(pl, "NATIONAL_ID_NUMBER", (player or {}).get("number") or "")


def _line(parent: ET.Element, rec: dict | None, home_direction: str, ns_team: int, ew_team: int) -> None:
    tl = _sub(parent, "TRAVELLER_LINE")
    _sub(tl, "DIRECTION", home_direction)
    _sub(tl, "NS_PAIR_NUMBER", ns_team)
    _sub(tl, "EW_PAIR_NUMBER", ew_team)
    cells = {"CONTRACT": "?", "PLAYED_BY": "", "LEAD": "", "TRICKS": "", "SCORE": ""}
    if rec is not None:
        try:
            cells = result_cells(rec)
        except Exception:  # noqa: BLE001 - an odd stored record stays unknown, the file is kept
            pass
    for name in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE"):
        _sub(tl, name, cells[name])


def _match(parent: ET.Element, m: dict) -> None:
    el = _sub(parent, "MATCH")
    _sub(el, "ROUND_NUMBER", m["round"])
    _sub(el, "TEAM", m["home"])
    if m["away"] is None:  # a bye (FSB 96B): the team and its VPs, no opponent, no score, no board
        if m.get("vp"):
            _sub(el, "TEAM_VICTORY_POINTS", f"{m['vp'][0]:.2f}")
        return
    _sub(el, "OPPOSING_TEAM", m["away"])
    _sub(el, "TEAM_SCORE", m["home_won"])
    _sub(el, "OPPOSING_TEAM_SCORE", m["away_won"])
    if m.get("vp"):
        _sub(el, "TEAM_VICTORY_POINTS", f"{m['vp'][0]:.2f}")
        _sub(el, "OPPOSING_TEAM_VICTORY_POINTS", f"{m['vp'][1]:.2f}")
    for b in m["boards"]:
        be = _sub(el, "BOARD")
        _sub(be, "BOARD_NUMBER", b["number"])
        _sub(be, "IMPS", b["imps"])
        _line(be, b["home_ns"], "NS", m["home"], m["away"])
        _line(be, b["home_ew"], "EW", m["away"], m["home"])


def document(event: dict) -> str:
    """event = {"club_name", "club_id", "description", "identifier", "date", "program",
    "version", "boards_played", "match_method" ("VPS" or "IMPS"), "teams" [{"number", "name",
    "total", "boards", "players"}], "matches" [{"round", "home", "away", "home_won",
    "away_won", "vp" (pair or None), "boards" [{"number", "imps", "home_ns", "home_ew"}]}; a bye:
    "away" None, "vp" (its VPs, None) or None],
    "hands" {board: "N:..."}, "notes" [comments]}."""
    root = ET.Element("USEBIO", Version="1.2")
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", event.get("club_name") or "")
    if event.get("club_id"):
        _sub(club, "CLUB_ID_NUMBER", event["club_id"])
    ev = _sub(root, "EVENT", EVENT_TYPE="TEAMS")
    _sub(ev, "EVENT_IDENTIFIER", event.get("identifier") or "")
    _sub(ev, "EVENT_DESCRIPTION", event.get("description") or "")
    _sub(ev, "PROGRAM_NAME", event.get("program") or "")
    _sub(ev, "PROGRAM_VERSION", event.get("version") or "")
    _sub(ev, "WINNER_TYPE", 1)
    day = event.get("date")
    _sub(ev, "DATE", day.strftime("%d/%m/%Y") if day else "")
    _sub(ev, "SESSION_COUNT", 1)
    _sub(ev, "SECTION_COUNT", 1)
    _sub(ev, "BOARD_SCORING_METHOD", "IMPS")
    _sub(ev, "MATCH_SCORING_METHOD", event.get("match_method") or "VPS")
    _sub(ev, "BOARDS_PLAYED", event.get("boards_played", 0))
    for note in event.get("notes") or []:
        ev.append(ET.Comment(" " + str(note).replace("--", "- -")[:300] + " "))
    parts = _sub(ev, "PARTICIPANTS")
    teams: list[dict[str, Any]] = sorted(event["teams"], key=lambda t: t["number"])
    places = place_labels([(t["number"], t["total"]) for t in teams])
    for t in teams:
        _team(parts, t, places.get(t["number"], ""))
    for m in event["matches"]:
        _match(ev, m)
    handset_element(root, event.get("hands") or {})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + ET.tostring(root, encoding="unicode") + "\n"
