"""USEBIO 1.2 XML of a pairs event: pure functions over plain data (no store, no I/O).

Conventions other writers and readers of USEBIO 1.2 use, and that this module follows:
- `<SECTION SECTION_ID="A">`: the section letter is an attribute.
- `<CLUB>` with `CLUB_NAME` and `CLUB_ID_NUMBER`; `WINNER_TYPE` 1 (one field) or 2 (a Mitchell
  ranked per direction: two winners).
- `PLACE` is a number, with `=` after it for a tie (`1=`), never a range like `1-2`.
- Each `PAIR` lists its `PLAYER`s (`PLAYER_NAME`, `NATIONAL_ID_NUMBER`: the number the scoring
  program sent for the player).
- `BOARDS_PLAYED` of the event counts boards, not boards times sections.
- A traveller line with an adjusted score (Law 12C) shows that score: an artificial score as
  `AVE+`, `AVE` or `AVE-` from North-South's side (two values, `AVE+/AVE+`, when the two are not
  each other's complement), an assigned score as the assigned contract and its score, a
  weighted or split score as `WEIGHTED` / `SPLIT`; never the table's own contract and score.

- The event's method: `EVENT_TYPE` `PAIRS` with `BOARD_SCORING_METHOD` `MATCH_POINTS` or
  `CROSS_IMPS`, or `BUTLER_PAIRS` with `IMPS`; `TOTAL_SCORE` and the traveller's
  `NS_MATCH_POINTS`/`EW_MATCH_POINTS` then hold that method's points (IMPs for IMP pairs, with
  `PERCENTAGE` empty).

Scores come from the project's one scorer, shared_rules.scoring (score_pairs_session,
score_imp_pairs_session). A stored record the scorer cannot read (an adjusted block without its
values, say) is shown with CONTRACT `?` and no points instead of failing the whole export. A
section the station does not score (teams) is preceded by a comment saying so and keeps its
traveller results without points.
"""
from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from typing import Any

from .pbn import CONTRACT_RE, card, contract_of, seat, small_int, text

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
SUITS = (("SPADES", 0), ("HEARTS", 1), ("DIAMONDS", 2), ("CLUBS", 3))
AVERAGE = {"avg+": "AVE+", "avg": "AVE", "avg-": "AVE-"}
OPPOSITE = {"avg+": "avg-", "avg": "avg", "avg-": "avg+"}
HAND_SEATS = (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))


def place_labels(scores: list[tuple[Any, Any]]) -> dict[Any, str]:
    """pair -> place, highest score first; pairs with equal scores share the better place and
    carry `=` (`1=`, `1=`, `3`)."""
    ordered = sorted(scores, key=lambda kv: -float(kv[1]))
    out: dict[Any, str] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and float(ordered[j + 1][1]) == float(ordered[i][1]):
            j += 1
        for k in range(i, j + 1):
            out[ordered[k][0]] = f"{i + 1}=" if j > i else str(i + 1)
        i = j + 1
    return out


def result_cells(rec: dict) -> dict[str, str]:
    """CONTRACT, PLAYED_BY, LEAD, TRICKS, SCORE of one traveller line; an adjusted score
    replaces what the table played (Law 12C)."""
    adjusted = rec.get("adjusted")
    if adjusted:
        return adjusted_cells(adjusted, rec.get("vulnerability"))
    contract = contract_of(rec)
    score = small_int(rec.get("score_ns"), -99999, 99999)
    if contract == "PASS":
        return {"CONTRACT": "PASS", "PLAYED_BY": "", "LEAD": "", "TRICKS": "", "SCORE": "0"}
    if contract is None:
        return {"CONTRACT": "?", "PLAYED_BY": "", "LEAD": "", "TRICKS": "", "SCORE": ""}
    tricks = small_int(rec.get("tricks"), 0, 13)
    lead = card(rec.get("lead"))
    return {"CONTRACT": contract, "PLAYED_BY": seat(rec.get("declarer")) or "",
            "LEAD": lead[1] + lead[0] if lead else "", "TRICKS": "" if tricks is None else str(tricks),
            "SCORE": "" if score is None else str(score)}


def adjusted_cells(adjusted: Any, vulnerability: Any) -> dict[str, str]:
    empty = {"PLAYED_BY": "", "LEAD": "", "TRICKS": "", "SCORE": ""}
    if not isinstance(adjusted, dict):
        return {"CONTRACT": "?", **empty}
    kind = adjusted.get("kind")
    if kind == "artificial":
        ns, ew = adjusted.get("ns"), adjusted.get("ew")
        if ns not in AVERAGE or ew not in AVERAGE:
            return {"CONTRACT": "?", **empty}
        label = AVERAGE[ns] if OPPOSITE[ns] == ew else f"{AVERAGE[ns]}/{AVERAGE[ew]}"
        # SCORE: the TD's adjusted score; starting with "A" it reads as adjusted (cobalt shows "ADJ").
        return {"CONTRACT": label, **empty, "SCORE": label}
    if kind == "assigned":
        c, d = adjusted.get("contract"), seat(adjusted.get("declarer"))
        tricks = small_int(adjusted.get("tricks"), 0, 13)
        score = small_int(adjusted.get("score_ns"), -99999, 99999)
        if score is None and isinstance(c, str) and CONTRACT_RE.match(c) and d and tricks is not None \
                and vulnerability in ("None", "NS", "EW", "All"):
            from shared_rules.scoring import score as law77

            score = law77(c, d, tricks, vulnerability)
        played = c if isinstance(c, str) and (c == "PASS" or CONTRACT_RE.match(c)) else None
        return {"CONTRACT": "ASSIGNED" if played is None else played, "PLAYED_BY": d or "", "LEAD": "",
                "TRICKS": "" if tricks is None else str(tricks), "SCORE": "" if score is None else str(score)}
    if kind in ("weighted", "split"):
        return {"CONTRACT": kind.upper(), **empty, "SCORE": "ADJ"}
    return {"CONTRACT": "?", **empty}


def parse_date(values: list[Any]) -> datetime.date | None:
    """The earliest valid ISO date among `entered_at` values; garbage is skipped."""
    days = []
    for v in values:
        if isinstance(v, str) and re.match(r"^\d{4}-\d{2}-\d{2}", v):
            try:
                days.append(datetime.date.fromisoformat(v[:10]))
            except ValueError:
                continue
    return min(days) if days else None


def _sub(parent: ET.Element, tag: str, value: Any = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, {k: text(v, 200) for k, v in attrs.items()})
    if value is not None:
        el.text = text(value, 200)
    return el


# The event's USEBIO EVENT_TYPE and BOARD_SCORING_METHOD by the scoring program's method
# (docs/station.md "Files"): Butler pairs are their own event type; cross-IMPs are a pairs event
# scored by cross-IMPs.
EVENT_TYPES = {"matchpoints": ("PAIRS", "MATCH_POINTS"), "imps": ("BUTLER_PAIRS", "IMPS"),
               "cross_imps": ("PAIRS", "CROSS_IMPS")}


def _total(totals: dict) -> Any:
    """A pair's total in the event's method: matchpoints, else IMPs."""
    return totals["mp"] if "mp" in totals else totals["imps"]


def _board_points(row: dict | None, side: str) -> Any:
    """A traveller line's points for `side` in the event's method ("" when not scored)."""
    if row is None:
        return ""
    value = row.get(f"{side}_mp", row.get(f"{side}_imps"))
    return "" if value is None else value


def pair_label(pair: Any) -> str:
    """A pair id (section, side, number) as other writers number pairs: a Mitchell's pair with
    its direction (`1NS`, `1EW`, as Compscore writes them, unique in the section), a Howell's
    pair by its number alone."""
    _section, side, number = pair
    return f"{number}{side}"


def _field_places(sec: dict) -> dict[Any, str]:
    """Places within the field the file ranks: the scoring group in a file of the session, the
    section in a file of one section; per direction in a Mitchell (two winners)."""
    pairs = sec["all_pairs"]
    rank_by = {p: t["pct"] if "pct" in t else t["imps"] for p, t in pairs.items() if p in set(sec["field"])}
    if sec["per_direction"]:
        places: dict[Any, str] = {}
        for side in ("NS", "EW"):
            places.update(place_labels([(p, v) for p, v in rank_by.items() if p[1] == side]))
        return places
    return place_labels(list(rank_by.items()))


def participants_element(parent: ET.Element, sec: dict) -> None:
    parts = _sub(parent, "PARTICIPANTS")
    places = _field_places(sec)
    for pair, totals in sorted(sec["scored"]["pairs"].items(), key=lambda kv: _pair_sort(kv[0])):
        p = _sub(parts, "PAIR")
        _sub(p, "PAIR_NUMBER", pair_label(pair))
        if pair[1]:
            _sub(p, "DIRECTION", pair[1])
        _sub(p, "PLACE", places.get(pair, ""))
        _sub(p, "TOTAL_SCORE", _total(totals))
        if "pct" in totals:
            _sub(p, "PERCENTAGE", totals["pct"])
        _sub(p, "BOARDS_PLAYED", totals["boards"])
        # Two players a pair, as readers expect (a seat the scoring program sent nobody for is
        # named so); the national number is always there, empty when not sent.
        known = (sec["players"].get(pair) or []) + [None, None]
        for player in known[:2]:
            pl = _sub(p, "PLAYER")
            _sub(pl, "PLAYER_NAME", (player or {}).get("full_name") or "Unknown player")
            _sub(pl, "NATIONAL_ID_NUMBER", (player or {}).get("number") or "")


def boards_elements(parent: ET.Element, sec: dict) -> None:
    per = sec["per_direction"]
    for board in sorted(sec["boards"]):
        b = _sub(parent, "BOARD")
        _sub(b, "BOARD_NUMBER", board)
        for rec, row in sec["boards"][board]:
            tl = _sub(b, "TRAVELLER_LINE")
            for side, key in (("NS", "ns_pair"), ("EW", "ew_pair")):
                n = small_int(rec.get(key), 0, 9999)
                _sub(tl, f"{side}_PAIR_NUMBER", "" if not n else pair_label((sec["id"], side if per else "", n)))
            cells = {"CONTRACT": "?", "PLAYED_BY": "", "LEAD": "", "TRICKS": "", "SCORE": ""}
            if row is not None or sec.get("refused"):
                try:
                    cells = result_cells(rec)
                except Exception:  # noqa: BLE001 - a refused section's odd record stays unknown
                    pass
            for name in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE"):
                _sub(tl, name, cells[name])
            _sub(tl, "NS_MATCH_POINTS", _board_points(row, "ns"))
            _sub(tl, "EW_MATCH_POINTS", _board_points(row, "ew"))


def handset_element(parent: ET.Element, hands: dict) -> None:
    hands = {b: d for b, d in hands.items() if _hands(d)}
    if not hands:
        return
    hs = _sub(parent, "HANDSET")
    for board in sorted(hands):
        hb = _sub(hs, "BOARD")
        _sub(hb, "BOARD_NUMBER", board)
        for (_s, name), hand in zip(HAND_SEATS, _hands(hands[board]) or [], strict=True):
            h = _sub(hb, "HAND")
            _sub(h, "DIRECTION", name)
            for suit, i in SUITS:
                _sub(h, suit, hand.split(".")[i])


def section_element(parent: ET.Element, sec: dict) -> None:
    """One <SECTION> of a file with several: sec = {"id", "per_direction", "scored" {"pairs": the
    section's pairs}, "all_pairs" (its scoring group's), "field" (the pairs ranked together),
    "boards" {board: [(rec, row or None)]}, "players" {pair: [player]}, "hands" {board: "N:..."},
    "refused" (why the section is not scored, or None)}. A refused section keeps its travellers'
    results, without points."""
    if sec.get("refused"):
        parent.append(_comment(sec["refused"]))
    el = _sub(parent, "SECTION", SECTION_ID=sec["id"])
    participants_element(el, sec)
    boards_elements(el, sec)
    handset_element(el, sec["hands"])


def comment_text(note: Any) -> str:
    """A note as the text of an XML comment that cannot end early: one printable line, no "--"
    (not allowed inside a comment)."""
    return re.sub(r"-(?=-)", "- ", text(note, 300))


def _comment(note: Any) -> ET.Element[Any]:
    return ET.Comment(" " + comment_text(note) + " ")


def _hands(deal: Any) -> list[str] | None:
    from .pbn import deal_from

    d = deal_from(deal, "N")
    if d is None or "-" in d[2:].split(" "):
        return None
    return d[2:].split(" ")


def _pair_sort(pair: Any) -> tuple:
    return (pair[0], pair[1], pair[2])


def document(event: dict) -> str:
    """event = {"club_name", "club_id", "description", "identifier", "date" (date or None),
    "program", "version", "boards_played", "sections" [see section_element], "method"
    ("matchpoints", "imps", "cross_imps": EVENT_TYPES)}.

    The layout real files have (Compscore's, as cobalt and other readers take them): a file of
    one section has PARTICIPANTS and BOARDs in the EVENT and the HANDSET after the EVENT; a file
    of several sections has one SECTION each, with its own hand records."""
    root = ET.Element("USEBIO", Version="1.2")
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", event.get("club_name") or "")
    if event.get("club_id"):
        _sub(club, "CLUB_ID_NUMBER", event["club_id"])
    event_type, board_method = EVENT_TYPES.get(event.get("method") or "matchpoints", EVENT_TYPES["matchpoints"])
    ev = _sub(root, "EVENT", EVENT_TYPE=event_type)
    _sub(ev, "EVENT_IDENTIFIER", event.get("identifier") or "")
    _sub(ev, "EVENT_DESCRIPTION", event.get("description") or "")
    _sub(ev, "PROGRAM_NAME", event.get("program") or "")
    _sub(ev, "PROGRAM_VERSION", event.get("version") or "")
    _sub(ev, "WINNER_TYPE", 2 if any(s["per_direction"] for s in event["sections"]) else 1)
    day = event.get("date")
    _sub(ev, "DATE", day.strftime("%d/%m/%Y") if day else "")
    _sub(ev, "SESSION_COUNT", 1)
    _sub(ev, "SECTION_COUNT", max(1, len(event["sections"])))
    _sub(ev, "BOARD_SCORING_METHOD", board_method)
    _sub(ev, "BOARDS_PLAYED", event.get("boards_played", 0))
    for note in event.get("damaged") or []:  # stored rows the file leaves out (export_items.py)
        ev.append(_comment(note))
    if len(event["sections"]) == 1:
        sec = event["sections"][0]
        if sec.get("refused"):
            ev.append(_comment(sec["refused"]))
        participants_element(ev, sec)
        boards_elements(ev, sec)
        handset_element(root, sec["hands"])
    else:
        for sec in event["sections"]:
            section_element(ev, sec)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + ET.tostring(root, encoding="unicode") + "\n"
