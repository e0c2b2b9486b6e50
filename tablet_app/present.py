"""From controller state to what a screen shows: plain strings and rows, no Kivy.

The Kivy screens and the headless demo both render these, so the two cannot disagree about what
the table looks like.
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from protocol import VERSION_MAX, VERSION_MIN
from shared_rules.records import RecordError, parse_key
from shared_rules.types import SEATS, Seat, Status
from tablet_app import i18n, law_texts, station_texts
from tablet_app.law_texts import SUIT, call_text
from tablet_app.results import tricks_label

__all__ = ["SUIT", "call_text"]  # defined with the Law's texts, shown from here too

COLUMNS = ("W", "N", "E", "S")  # the order of a printed auction diagram
RED = ("D", "H")


def profile_choices(lang: str = "en") -> dict[str, str]:
    """The regulation profiles as the TD chooses them on the setup screen, id -> name, marked
    where values in them rest on no cited regulation text (shared_rules profiles: `assumed`)."""
    from shared_rules import profiles

    out = {}
    for name in profiles.names():
        label = i18n.profile_name(name, lang)
        out[name] = i18n.tr("setup_profile_assumed", lang, name=label) if profiles.load(name).assumed else label
    return out


def contract_text(contract: str | None, declarer: str | None = None, lang: str = "en") -> str:
    if not contract:
        return ""
    if contract == "PASS":
        return i18n.tr("passed_out", lang)
    core = contract.rstrip("X")
    doubled = contract[len(core):]
    text = call_text(core, lang) + doubled
    if declarer:
        text += f" {i18n.tr('by', lang)} {i18n.seat_name(declarer, lang)}"
    return text


def is_red(call: str | None) -> bool:
    return call is not None and call != "" and call[-1] in RED and call not in ("X", "XX")


def auction_grid(calls: list[dict[str, Any]], dealer: str, next_seat: str | None) -> list[list[dict[str, Any] | None]]:
    """Rows of four cells (W N E S). A cell is None before the dealer, else the call dict; the seat
    in turn gets a cell `{"turn": True}` so the screen can show whose turn it is."""
    start = COLUMNS.index(dealer)
    cells: list[dict[str, Any] | None] = [None] * start
    cells += [dict(c) for c in calls]
    if next_seat is not None:
        cells.append({"seat": next_seat, "turn": True})
    rows = [cells[i:i + 4] for i in range(0, len(cells), 4)] or [[]]
    for r in rows:
        r += [None] * (4 - len(r))
    return rows


def status_line(snap: Mapping[str, Any], lang: str = "en") -> str:
    st = snap.get("state") or {}
    phase = snap.get("phase")
    if snap.get("board") is None and phase != "round_end":
        return i18n.tr("no_board", lang)
    if phase == "frozen":
        pending = st.get("pending") or {}
        if pending.get("call") and pending.get("seat"):
            # the call the table is ruling on, for the player the Law lets accept it
            return i18n.tr("irregular_waits", lang, seat=i18n.seat_name(pending["seat"], lang),
                           call=call_text(pending["call"], lang),
                           what=i18n.decision_name(pending.get("kind"), lang).lower())
        return i18n.tr("waits_td", lang)
    if snap.get("held"):
        seats = ", ".join(i18n.seat_name(c.get("seat"), lang) for c in snap.get("td_calls") or [])
        return i18n.tr("held_waits", lang, seat=seats)
    if phase == "round_end":
        return i18n.tr("round_over", lang)
    if phase in ("play", "confirm"):
        if st.get("status") == Status.PASSED_OUT:
            return i18n.tr("passed_out", lang)
        return i18n.tr("auction_over", lang, contract=contract_text(st.get("contract"), None, lang),
                       declarer=i18n.seat_name(st.get("declarer"), lang))
    text = i18n.tr("to_call", lang, seat=i18n.seat_name(st.get("next"), lang))
    wait = snap.get("stop_wait")
    if wait:
        key = "stop_wait" if wait.get("enforced") else "stop_wait_report"
        text += "   \u00b7   " + i18n.tr(key, lang, seat=i18n.seat_name(wait["seat"], lang),
                                           s=max(1, int(wait["remaining"] + 0.99)))
    screen = snap.get("screen")
    if screen:
        seats = " + ".join(i18n.seat_name(s, lang) for s in screen["tray_seats"])
        text += "   \u00b7   " + i18n.tr("tray_moving", lang, seats=seats)
    return text


def seat_strip(snap: Mapping[str, Any], seat: str, lang: str = "en") -> str:
    """What one player needs to read on a tablet lying flat, on the strip turned to his seat:
    his name, whether it is his turn (and his stop wait), the call the table is ruling on, a hold,
    and what a ruling obliges him to do."""
    st = snap.get("state") or {}
    name = i18n.seat_name(seat, lang)
    phase = snap.get("phase")
    if phase == "auction" and not snap.get("held") and st.get("next") == seat:
        text = i18n.tr("your_turn", lang)
        wait = snap.get("stop_wait")
        if wait and wait.get("seat") == seat:
            text += "   \u00b7   " + i18n.tr("stop_wait_you", lang, s=max(1, int(wait["remaining"] + 0.99)))
    else:
        text = status_line(snap, lang)
    for ob in st.get("obligations", []):
        if ob.get("seat") == seat:
            text += "   \u00b7   " + law_texts.obligation_line(ob, lang)
    return f"[b]{name}[/b]:  {text}"


def header(snap: Mapping[str, Any], lang: str = "en") -> str:
    s = snap.get("session") or {}
    st = snap.get("state") or {}
    if snap.get("board") is None:
        return f"{i18n.tr('table', lang)} {s.get('table', '-')}  \u00b7  {i18n.tr('round', lang)} {s.get('round', '-')}"
    return (f"{i18n.tr('board', lang)} {snap['board']}  \u00b7  "
            f"{i18n.tr('dealer', lang)} {i18n.seat_name(st.get('dealer'), lang)}  \u00b7  "
            f"{i18n.vul_name(st.get('vulnerability'), lang)}  \u00b7  "
            f"{i18n.tr('table', lang)} {s.get('section', '')}{s.get('table', '')}  \u00b7  "
            f"{i18n.tr('round', lang)} {s.get('round', '')}")


def rank_text(rank: str, lang: str = "en") -> str:
    """A card's rank as the player's federation writes it: 'T' -> '10', Swedish/Danish 'Q' -> 'D'."""
    return "10" if rank == "T" else i18n.RANKS.get(lang, {}).get(rank, rank)


def card_text(card: str, lang: str = "en") -> str:
    """'SK' -> '♠K', 'HT' -> '♥10', Swedish 'SJ' -> '♠Kn'."""
    return SUIT.get(card[:1], card[:1]) + rank_text(card[1:], lang)




def _side(seat: str | None) -> int:
    return SEATS.index(seat) % 2 if seat in SEATS else -1


def seat_names(pending: dict[str, Any], lang: str = "en") -> dict[str, str]:
    """The seats a Law option speaks of, named: the offender, his LHO and partner (never "LHO")."""
    seat = pending.get("seat")
    if seat not in SEATS:
        return {"call": call_text(pending.get("call"), lang)}
    offender = Seat.of(seat)
    return {"offender": i18n.seat_name(seat, lang), "lho": i18n.seat_name(offender.lho.letter, lang),
            "partner": i18n.seat_name(offender.partner.letter, lang), "call": call_text(pending.get("call"), lang)}


BIDS = [f"{lvl}{s}" for lvl in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


def replacement_calls(st: dict[str, Any]) -> list[str]:
    """The calls a replacement may be (2017/2007 L27B: a legal call at the offender's turn): pass,
    a double or redouble only when the standing auction admits one (L19), and the sufficient bids."""
    pending = st.get("pending") or {}
    seat = pending.get("seat")
    last = next((c for c in reversed(st.get("calls", [])) if c.get("call") != "P"), None)
    out = ["P"]
    if last is not None and _side(last.get("seat")) != _side(seat):
        if last.get("call") == "X":
            out.append("XX")
        elif last.get("call") not in ("XX", "X"):
            out.append("X")
    lowest = st.get("lowest_bid")
    if lowest in BIDS:
        out += BIDS[BIDS.index(lowest):]
    return out


def consequences(st: dict[str, Any], lang: str = "en") -> list[str]:
    out = []
    adj = st.get("adjusted_score")
    if adj:
        out.append(i18n.tr("adjusted_required", lang) + f"  ({adj.get('law', '')})")
    wb = st.get("wrong_board")
    outcome = i18n.wrong_board_outcome(wb.get("outcome"), lang) if wb else None
    if wb and outcome:
        out.append(outcome + f"  ({wb.get('law', '')})")
        d = wb.get("differs")
        if d:
            out.append(i18n.tr("wb_differs", lang, seat=i18n.seat_name(d["seat"], lang), call=call_text(d["call"], lang),
                               earlier=call_text(d["earlier"], lang)))
    # Exposed cards stay on the table until the end of the auction (L24), then follow L24D/L24E (L50).
    for x in st.get("exposed_cards", []):
        key = {"penalty_cards": "exposed_penalty", "returned_to_hand": "exposed_returned"}.get(
            x.get("becomes") or "", "exposed_face_up")
        cards = " ".join(card_text(c, lang) for c in x.get("cards", []))
        out.append(i18n.tr(key, lang, seat=i18n.seat_name(x.get("seat"), lang), cards=cards) + f"  ({x.get('law', '')})")
    for ob in st.get("obligations", []):
        line = law_texts.obligation_line(ob, lang)
        out.append(f"{line}  ({ob['law']})" if ob.get("law") else line)
    out.extend(law_texts.lead_line(lr, lang) for lr in st.get("lead_restrictions", []))
    return out


def flag_text(kind: str, lang: str = "en") -> str:
    """A timing flag of the tempo view in words."""
    return i18n.flag_name(kind, lang)


def what_happened(st: dict[str, Any], lang: str = "en") -> list[str]:
    lines = []
    for irr in st.get("irregularities", []):
        name = i18n.irregularity_name(irr.get("kind", ""), lang)
        call = irr.get("call")
        who = i18n.seat_name(irr.get("seat"), lang)
        cards = " ".join(card_text(c, lang) for c in irr.get("cards") or [])
        lines.append(f"{name}: {who}" + (f" {call_text(call, lang)}" if call else "") + (f" {cards}" if cards else "")
                     + f"  ({irr.get('law', '')})")
    return lines


def headless_table(snap: Mapping[str, Any], lang: str = "en") -> str:
    """The auction screen as text (the headless demo prints this)."""
    st = snap.get("state") or {}
    lines = [header(snap, lang)]
    if st:
        # the dealer is marked; vulnerability is in the header in words ("*" means alerted on a box)
        heads = []
        for seat in COLUMNS:
            h = i18n.seat_name(seat, lang)
            if seat == st.get("dealer"):
                h += " (D)"
            heads.append(f"{h:<10}")
        lines.append("".join(heads))
        for row in auction_grid(st.get("calls", []), st.get("dealer", "N"), st.get("next")):
            cells = []
            for c in row:
                if c is None:
                    cells.append(" " * 10)
                elif c.get("turn"):
                    cells.append(f"{'?':<10}")
                else:
                    t = call_text(c.get("call"), lang) + ("*" if c.get("alerted") else "") + (" STOP" if c.get("stop") else "")
                    cells.append(f"{t:<10}")
            lines.append("".join(cells).rstrip())
    lines.append(status_line(snap, lang))
    return "\n".join(lines)


def result_text(rec: dict[str, Any], lang: str = "en") -> str:
    """One result record in a line: `4♥ by North +420`, `Passed out +0`, `Avg+ / Avg-`."""
    adj = rec.get("adjusted")
    if adj and adj.get("kind") == "artificial":
        return f"{i18n.tr(adj['ns'], lang)} / {i18n.tr(adj['ew'], lang)}"
    if adj:
        return adjusted_text(adj, lang)
    score = rec.get("score_ns")
    return f"{contract_text(rec.get('contract'), rec.get('declarer'), lang)} {score:+d}" if isinstance(score, int) else ""


def outcome_text(o: dict[str, Any], lang: str = "en") -> str:
    """One outcome of the TD's assigned score (tablet_app/assigned.py): `4♠= by North`."""
    contract = o.get("contract")
    if contract in (None, "PASS"):
        return contract_text(contract, None, lang)
    label = tricks_label(contract, o.get("tricks"))
    return f"{contract_text(contract, None, lang)}{label} {i18n.tr('by', lang)} {i18n.seat_name(o.get('declarer'), lang)}"


def adjusted_text(adj: dict[str, Any], lang: str = "en") -> str:
    """The TD's assigned, weighted or split score in a line (Law 12C1): `4♠= by North (TD)`,
    `Weighted score: 60% 4♠= by North, 40% 4♠-1 by North (TD)`."""
    def side(v: Any) -> str:
        if not isinstance(v, dict):
            return str(v)
        if "artificial" in v:
            return i18n.tr(str(v["artificial"]), lang)
        if "outcomes" in v:
            return ", ".join(f"{round(float(Fraction(str(o.get('weight')))) * 100)}% {outcome_text(o, lang)}"
                             for o in v["outcomes"])
        return outcome_text(v, lang)

    kind, td = adj.get("kind"), i18n.tr("res_by_td", lang)
    if kind == "weighted":
        return f"{i18n.tr('res_weighted', lang)}: {side(adj)} {td}"
    if kind == "split":
        return (f"{i18n.tr('res_split', lang)}: {i18n.tr('assign_ns', lang)} {side(adj.get('ns'))}; "
                f"{i18n.tr('assign_ew', lang)} {side(adj.get('ew'))} {td}")
    return f"{side(adj)} {td}" if kind == "assigned" else str(kind or "")


def _item_name(kind: Any, key: Any) -> str:
    """An item for the director console: its key without the table's id (the same for every item
    of this tablet), e.g. `2/5/1` for round 2, board 5, revision 1."""
    try:
        parsed = parse_key(kind, key)
    except RecordError:
        return str(key)  # not a key the records know: as it was queued
    return parsed.format().removeprefix(parsed.table_id.format()).lstrip("/")


RED_MARKUP = "cc141f"  # refusals on the director console


def delivery_report(delivery: dict[str, Any], configured: bool, station: dict[str, Any] | None,
                    lang: str = "en") -> list[str]:
    """The director console's lines on where results stand, from `snapshot()["delivery"]`
    (`configured`: the tablet has a station to deliver to) and `snapshot()["station"]` (the check
    before the first board). Every refusal and a failed check in red (markup), with the station's
    status and reason: a table whose results never arrive must be seen where the director looks."""
    d, p = delivery.get("delivered", 0), delivery.get("waiting", 0)
    if not configured:
        lines = [i18n.tr("station_none", lang, n=d + p)]
    else:
        lines = [i18n.tr("station_ok" if delivery.get("connected") else "station_down", lang, d=d, p=p)]
    if station and not station.get("ok"):
        message = station.get("message") or station.get("reason") or ""
        if station.get("refusal"):  # the station's refusal, by its code
            message = station_texts.by_code(message, lang, station.get("refusal"))
        lines.append(f"[color={RED_MARKUP}]" + i18n.tr("station_check_failed", lang, table=station.get("table", ""),
                                                  message=i18n.station_problem(message, lang) or message)
                     + "[/color]")
    pin = i18n.station_problem(delivery.get("last_error") or "", lang) if not delivery.get("connected") else None
    if pin and pin not in lines[-1]:  # the deliveries meet the same certificate: said once
        lines.append(f"[color={RED_MARKUP}]{pin}[/color]")
    for item in delivery.get("refused") or []:
        # held: a result of a round the table is not on yet at the station (docs/station.md
        # "Law 16 at the station"), taken once the round is open there
        text = i18n.tr("station_held_item" if item.get("held") else "station_refused_item", lang,
                       status=item.get("status") or "-", what=_item_name(item.get("kind"), item.get("key")),
                       reason=station_texts.by_code(item.get("reason") or "", lang, item.get("refusal")))
        if item.get("retrying") and not item.get("held"):
            text += " " + i18n.tr("station_refused_retrying", lang)
        lines.append(f"[color={RED_MARKUP}]{text}[/color]")
    return lines


def box_lines(trouble: dict[str, dict[str, Any]], lang: str = "en") -> list[str]:
    """The director console's lines on the boxes' links (`TableRunner.box_trouble`): a box
    whose protocol the tablet does not speak in red (it cannot take calls), frames a box could
    not read as a plain line (a cable to check; the link re-sends, nothing is lost); two boxes
    on one seat or a seat with no box, as the search at start found them, in red."""
    lines = []
    for seat in sorted(trouble, key=lambda s: SEATS.index(s) if s in SEATS else -1):
        t = trouble[seat]
        name = i18n.seat_name(seat, lang)
        if t.get("version"):
            lo, hi = t["version"]
            lines.append(f"[color={RED_MARKUP}]" + i18n.tr("box_version", lang, seat=name, lo=lo, hi=hi,
                                                      tlo=VERSION_MIN, thi=VERSION_MAX) + "[/color]")
        if t.get("naks"):
            lines.append(i18n.tr("box_naks", lang, seat=name, n=t["naks"], reason=t.get("reason") or "-"))
        # what the search for the boxes found at start (tablet_app/link/discover.py)
        if t.get("clash"):
            lines.append(f"[color={RED_MARKUP}]" + i18n.tr("boxes_clash", lang, seat=name,
                                                      ports=", ".join(t["clash"])) + "[/color]")
        if t.get("missing"):
            lines.append(f"[color={RED_MARKUP}]" + i18n.tr("boxes_missing", lang, seats=name) + "[/color]")
    return lines


def round_end_lines(pos: dict[str, Any] | None, lang: str = "en") -> list[str]:
    """Where each pair and the boards go next (`Controller.next_positions()`): a Mitchell of the
    tablet's own, or the station's movement with its sit-outs, direction changes (a Howell) and
    last round. Anything the tablet cannot say sends the players to the director."""
    pos = pos or {}
    if pos.get("last_round"):
        return [i18n.tr("last_round", lang)]
    lines = []
    for side, own in (("ns", "NS"), ("ew", "EW")):
        x = pos.get(side)
        if not x:
            continue
        if x.get("sits_out"):
            lines.append(i18n.tr(f"pairs_{side}_out", lang, pair=x.get("pair", "")))
            continue
        line = i18n.tr(f"pairs_{side}_go", lang, pair=x.get("pair", ""), table=x.get("table", ""))
        if x.get("seat") and x["seat"] != own:
            line += " " + i18n.tr("as_" + x["seat"].lower(), lang)
        lines.append(line)
    b = pos.get("boards")
    if b:
        boards = ", ".join(map(str, b.get("boards", [])))
        lines.append(i18n.tr("boards_go", lang, boards=boards, table=b["table"]) if b.get("table")
                     else i18n.tr("boards_to_td", lang, boards=boards))
    return lines or [i18n.tr("ask_td", lang)]


def _result_mark(contract: str | None, tricks: Any) -> str:
    """Tricks against the contract, as a traveller writes them: `=`, `+1`, `-2`."""
    if not contract or contract == "PASS" or not isinstance(tricks, int) or not contract[0].isdigit():
        return ""
    over = tricks - (int(contract[0]) + 6)
    return "=" if over == 0 else f"{over:+d}"


def _mp(v: Any) -> str:
    return "" if v is None else f"{float(v):g}"


def traveller_table(trav: dict[str, Any], lang: str = "en") -> tuple[list[str], list[list[str]]]:
    """`snapshot()["traveller"]` as a traveller's header and rows, one per table: pairs, contract
    and declarer, tricks (and the result against the contract), North-South's score, each side's
    matchpoints (Law 78A). An adjusted score without a table score says so."""
    head = [i18n.tr("table", lang), i18n.tr("trav_ns", lang), i18n.tr("trav_ew", lang), i18n.tr("contract", lang),
            i18n.tr("trav_tricks", lang), i18n.tr("score_ns", lang),
            f"{i18n.tr('trav_mp', lang)} {i18n.tr('trav_ns', lang)}", f"{i18n.tr('trav_mp', lang)} {i18n.tr('trav_ew', lang)}"]
    rows = []
    for r in trav.get("rows") or []:
        contract, tricks = r.get("contract"), r.get("tricks")
        score = r.get("score_ns")
        mark = _result_mark(contract, tricks)
        if isinstance(score, int):
            score_text = f"{score:+d}" if score else "0"
        else:
            score_text = i18n.tr("trav_adjusted", lang) if r.get("adjusted") else ""
        rows.append([str(r.get("table", "")), str(r.get("ns_pair", "")), str(r.get("ew_pair", "")),
                     contract_text(contract, r.get("declarer"), lang),
                     f"{tricks} ({mark})" if mark else ("" if tricks is None else str(tricks)),
                     score_text, _mp(r.get("mp_ns")), _mp(r.get("mp_ew"))])
    return head, rows


def _boards(n: int, lang: str) -> str:
    """"1 board", "2 boards" (sv "1 bricka", "2 brickor"; da "1 spil", "2 spil")."""
    return i18n.tr("trav_board_one" if n == 1 else "trav_boards", lang, n=n)


def recap_lines(recap: dict[str, Any] | None, lang: str = "en") -> list[str]:
    """Each pair's running score over the travellers the table holds (`traveller["recap"]`): over
    the boards that could be compared, with the boards still waiting for other results apart."""
    out = []
    for side in ("ns", "ew"):
        r = (recap or {}).get(side)
        if not r:
            continue
        who = i18n.tr("trav_pair", lang, side=i18n.tr(f"trav_{side}", lang), pair=r.get("pair"))
        boards, waiting = int(r.get("boards") or 0), int(r.get("waiting") or 0)
        if not boards:
            out.append(f"{who}: " + i18n.tr("trav_none_yet", lang, boards=_boards(waiting, lang)))
            continue
        pct = "-" if r.get("percent") is None else f"{r['percent']:.1f} %"
        line = f"{who}: " + i18n.tr("trav_score", lang, mp=_mp(r.get("mp")) or "0", top=r.get("top", 0),
                                    percent=pct, boards=_boards(boards, lang))
        if waiting:
            line += "; " + i18n.tr("trav_waiting", lang, boards=_boards(waiting, lang))
        out.append(line)
    return out
