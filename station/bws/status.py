"""Which scoring-program link the station runs, for the director page: the Data Connector, or
the `.bws` bridge with when the scoring program last read a result (its Processed flags)."""
from __future__ import annotations

import html
import json
from typing import Any


def integration(st: Any) -> dict[str, Any]:
    store = st.store
    if store.setting("integration") == "bws":
        saved = store.setting("bws/status")
        return {"integration": "bws", **(json.loads(saved) if saved else {})}
    accepted = store.query("SELECT COUNT(*) FROM dc_accepted WHERE data_type = 12")[0][0]
    return {"integration": "dataconnector", "accepted": int(accepted)}


def line(st: Any) -> str:
    """One paragraph of HTML for the director page."""
    s = integration(st)
    e = html.escape
    if s["integration"] != "bws":
        return (f'<p id="integration">Scoring program link: Bridgemate Data Connector (/dc-scoringprogram); '
                f'{s["accepted"]} results taken by the scoring program.</p>')
    when = str(s.get("last_read_at") or "").replace("T", " ").rstrip("Z")
    read = (f'last read by the scoring program at {e(when)} UTC' if when
            else "not read by the scoring program yet")
    text = (f'Scoring program link: .bws file {e(str(s.get("path")))} (Ruter, Magic Contest); '
            f'{int(s.get("written") or 0)} results in the file, {int(s.get("processed") or 0)} read; {read}.')
    problems = [e(s["error"])] if s.get("error") else []
    problems += [e(h) for h in s.get("held") or []]
    if problems:
        text += '<br><strong class="bws-error">' + "<br>".join(problems[:20]) + "</strong>"
    return f'<p id="integration">{text}</p>'
