"""BBO vugraph LIN for the live feed: one line per board, as BBO's vugraph and handviewer read it.

A board's line is `pn|S,W,N,E|` (the players from South, as LIN orders seats), `qx|o<board>|` or
`qx|c<board>|` (the open or closed room of a team match), `st||`, `md|<dealer>[hands]|` (dealer
1 South, 2 West, 3 North, 4 East, then the hands from South, `S<cards>H<cards>D<cards>C<cards>`,
only once the deal may be shown: until then the dealer alone), `rh||`, `ah|Board N|`,
`sv|o/n/e/b|` (vulnerable: none, NS, EW, both), each call `mb|1C|` (`p` pass, `d` double, `r`
redouble, `N` notrump, `!` after an alerted call) followed by `an|<explanation>|` where the
explanation may be shown, and at the end of a played board `mc|<tricks>|` (declarer's tricks,
as a claim: no cards are played in the feed). A match's file starts with `vg|` (event, segment,
scoring, first and last board, the teams). Pure functions; endplay's LIN parser reads every line
back (tests/station/test_live_feed.py).

Text from a tablet or the scoring program (names, explanations) never carries `|` or a line
break into a line: they are replaced, so no value can end its field and forge another.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

LIN_SEATS = "SWNE"  # LIN's order of the seats (pn|, md|)
DEALER_DIGIT = {"S": "1", "W": "2", "N": "3", "E": "4"}
VUL_CODE = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
_UNSAFE = re.compile(r"[|\r\n\x00-\x1f\x7f]")


def clean(text: Any, limit: int = 80) -> str:
    """A value as LIN may carry it: no `|`, no control character, at most `limit` characters."""
    return _UNSAFE.sub(" ", str(text or "")).replace(",", " ")[:limit].strip()


def lin_call(call: str) -> str:
    """A call as LIN writes it: 1C..7N, p, d, r."""
    c = call.upper()
    if c in ("P", "PASS"):
        return "p"
    if c == "X":
        return "d"
    if c == "XX":
        return "r"
    return c.replace("NT", "N")


def lin_hands(pbn_deal: str | None) -> list[str] | None:
    """A PBN deal (`N:AKQ.J.T9.8765 ...`, the hand records' form) as LIN's four hands from South
    (`SAKQHJDT9C8765`), or None when there is none or it does not read."""
    if not pbn_deal or ":" not in pbn_deal:
        return None
    first, _, rest = pbn_deal.partition(":")
    hands = rest.split()
    order = "NESW"
    if first.strip().upper() not in order or len(hands) != 4:
        return None
    by_seat = {}
    start = order.index(first.strip().upper())
    for i, hand in enumerate(hands):
        suits = hand.split(".")
        if len(suits) != 4:
            return None
        by_seat[order[(start + i) % 4]] = "".join(f"{s}{cards.upper()}" for s, cards in zip("SHDC", suits, strict=True))
    return [by_seat[s] for s in LIN_SEATS]


def board_line(board: int, dealer: str, vulnerability: str, players: Mapping[str, str],
               calls: Sequence[Mapping[str, Any]], *, room: str | None = None, deal: str | None = None,
               tricks: int | None = None, contract: str | None = None) -> str:
    """One board's LIN line. `calls`: the calls shown, each `{"call", "alerted", "explanation"}`
    (explanation only where it may be shown); `room` "Open"/"Closed" in a team match; `deal`
    (PBN form) and `tricks` only once they may be shown."""
    out = [f"pn|{','.join(clean(players.get(s), 40) for s in LIN_SEATS)}|"]
    if room in ("Open", "Closed"):
        out.append(f"qx|{room[0].lower()}{board}|")
    hands = lin_hands(deal)
    out.append("st||")
    out.append(f"md|{DEALER_DIGIT.get(dealer, '3')}{','.join(hands) if hands else ''}|")
    out.append("rh||")
    out.append(f"ah|Board {board}|")
    out.append(f"sv|{VUL_CODE.get(vulnerability, 'o')}|")
    for c in calls:
        out.append(f"mb|{lin_call(str(c.get('call')))}{'!' if c.get('alerted') else ''}|")
        if c.get("alerted") and c.get("explanation"):
            out.append(f"an|{clean(c['explanation'], 200)}|")
    if tricks is not None and contract not in (None, "PASS") and hands:
        out.append(f"mc|{int(tricks)}|")
    out.append("pg||")
    return "".join(out)


def match_header(event: str, segment: str, scoring: str, boards: Iterable[int], home: str, away: str) -> str:
    """The `vg|` line of a match's file: event, segment, scoring (I IMPs, P matchpoints, B BAM),
    first and last board, the two teams and their carry-over (none here)."""
    bs = sorted(boards) or [0]
    return f"vg|{clean(event)},{clean(segment)},{scoring},{bs[0]},{bs[-1]},{clean(home)},0,{clean(away)},0|"
