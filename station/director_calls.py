"""A TD call in the TD's words: who called (the seat, or the table itself at an irregularity),
what about, under which Law of which edition, and the ruling made.

A call item carries who called and why (`seat`, `reason`: the decision the table waited for); the
ruling is in the board's irregularity records (`law`, `resolution`, `ruling`: the engine's, sent
with the auction's progress and the result, docs/table-log.md) and in the result's `adjusted`
block (Law 12). `match` finds the record a call is about: the one made at the moment the table
froze (the call's `t` is that event's), else the first of the kind the call names.

Pure: plain data in, texts out (not yet escaped).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shared_rules.types import Decision, IrregularityKind, Resolution

from . import director_texts as tx

# The irregularity a decision is about, where its name is not the irregularity's own.
_KIND_OF: dict[str, str] = {
    Decision.INSUFFICIENT_BID_JUDGEMENT: IrregularityKind.INSUFFICIENT_BID,
    Decision.OOT_JUDGEMENT: IrregularityKind.CALL_OUT_OF_ROTATION,
    Decision.WRONG_BOARD_JUDGEMENT: IrregularityKind.WRONG_BOARD,
    Decision.WRONG_BOARD_REPEAT: IrregularityKind.WRONG_BOARD,
}
_NOTE_LAW = re.compile(r"\((\d{4} L[^()]*(?:\([a-z0-9]+\)[^()]*)*)\)\s*$")
OPEN = ("launched", "in_progress", "deferred")


def irregularity_of(reason: Any) -> str | None:
    """The irregularity kind a call's `reason` names, if any."""
    if not isinstance(reason, str):
        return None
    kind = _KIND_OF.get(reason, reason)
    return kind if kind in IrregularityKind.__members__.values() else None


def match(call: Mapping[str, Any], records: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The irregularity record of the call's board that the call is about (None for a TD key)."""
    kind = irregularity_of(call.get("reason"))
    if kind is None:
        return None
    same = [x for x in records if isinstance(x, Mapping) and x.get("kind") == kind]
    t = call.get("t")
    timed = [x for x in same if t is not None and x.get("t") == t]
    found = timed or same
    return found[0] if found else None


@dataclass(frozen=True)
class CallWords:
    """One TD call, each part in the page's language (not escaped)."""

    who: str
    what: str
    law: str
    ruling: str
    note: str


def words(call: Mapping[str, Any], record: Mapping[str, Any] | None, adjusted: Mapping[str, Any] | None,
          lang: str, edition: int | None) -> CallWords:
    """`call` (a stored td_call payload, its `status` the latest), the irregularity `record` it is
    about and the board's `adjusted` score, in `lang`; `edition`: the table's profile's, for a
    Law named without one."""
    seat, reason = call.get("seat"), call.get("reason")
    offender = record.get("seat") if record else None
    if seat:
        who = tx.text("called_by", lang, seat=tx.seat(seat, lang))
    elif offender:
        who = tx.text("called_by_table", lang, seat=tx.seat(offender, lang))
    else:
        who = tx.text("table_itself", lang)
    if record:
        what = tx.words("irregularity", record.get("kind"), lang)
    elif reason:
        what = tx.words("reason", reason, lang)
    else:
        what = tx.words("reason", "td_key", lang) if seat else ""
    law_ref = record.get("law") if record else None
    if not law_ref:
        m = _NOTE_LAW.search(str(call.get("note") or ""))
        law_ref = m.group(1) if m else None
    ruling = ruling_words(record, adjusted, lang, edition) if call.get("status") not in OPEN else ""
    if not ruling:
        about_law = record is not None or irregularity_of(reason) is not None
        ruling = tx.text("awaiting_ruling", lang) if call.get("status") in OPEN and about_law else ""
    # A note is shown only where the reason has no words of ours (a free text, a newer tablet's).
    note = "" if reason in tx.REASONS or (record and not reason) else str(call.get("note") or "")
    return CallWords(who, what, tx.law(law_ref, lang, edition), ruling, note)


def ruling_words(record: Mapping[str, Any] | None, adjusted: Mapping[str, Any] | None, lang: str,
                 edition: int | None) -> str:
    """The ruling made on an irregularity (its resolution, under its Law), with the adjusted score
    the result carries when the TD awarded one."""
    parts = []
    if record and record.get("resolution"):
        ruled = tx.words("ruling", record["resolution"], lang)
        law = tx.law(record.get("ruling"), lang, edition)
        parts.append(f"{ruled} ({law})" if law else ruled)
    if adjusted and (not record or record.get("resolution") in (None, Resolution.ADJUSTED_SCORE)):
        parts.append(adjusted_words(adjusted, lang))
    return "; ".join(parts)


def adjusted_words(adjusted: Mapping[str, Any], lang: str) -> str:
    """An adjusted score (Law 12) in words: its kind, and the NS/EW values of an artificial one."""
    kind = tx.words("adjusted", str(adjusted.get("kind") or ""), lang)
    if adjusted.get("ns") is not None and adjusted.get("ew") is not None:
        return tx.text("adjusted_ns_ew", lang, kind=kind, ns=adjusted["ns"], ew=adjusted["ew"])
    return tx.text("adjusted", lang, kind=kind)
