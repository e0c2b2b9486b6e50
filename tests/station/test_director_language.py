"""The director page in the TD's language: the club's (`python -m station --language`) or the
view's (`?lang=`); each TD call names the seat in the language's letters, the irregularity in
words, the Law with its edition and the ruling made. A real Chromium lays the pages out in Swedish
and Danish at a desk's and at a phone's width: no cell and no page runs wider than its box, and a
hostile player name or TD-call reason stays text."""
import json
import pathlib
import re
from html import unescape
from urllib.parse import quote

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import PlayerDataDTO

from shared_rules.types import IrregularityKind
from shared_rules.vocabulary import IRREGULARITIES

from .conftest import EVENT, ROOT, StationProcess, result_record
from .test_dataconnector import GUID, pairs_init
from .test_director_names import SLOTS, ok, seat

HOSTILE_NAME = '<img class="hostile" src=x>Örjan'
HOSTILE_REASON = '<script class="hostile">alert(1)</script>'


def text_of(page: str, element_id: str, tag: str = "table") -> str:
    m = re.search(rf'<{tag} id="{element_id}">.*?</{tag}>', page, re.S)
    assert m, element_id
    return unescape(re.sub(r"<[^>]+>", " ", m.group(0)))


def rows_of(page: str, cls: str) -> list[str]:
    return [unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r))).strip()
            for r in re.findall(rf'<(?:tr|li) class="{cls}">.*?</(?:tr|li)>', page, re.S)]


def get(st, path: str) -> str:
    status, page = st.request("GET", path + ("&" if "?" in path else "?") + f"token={st.token}")
    assert status == 200, page
    return page


def play_a_ruled_board(st, tmp_path, profile: str, table: int) -> None:
    """A real tablet (dbf-2017 or fsb-2007) through its outbox: N 1NT, E 1S (insufficient: the
    table calls the TD), West's TD key, the TD lets South accept (L27A1) and signs in, the auction
    ends; every item delivered to the station."""
    from tablet_app.controller import Controller
    from tablet_app.outbox import Deliverer

    db = tmp_path / f"tablet{table}.db"
    ctl = Controller(db)
    d = Deliverer(str(db), st.url, f"{EVENT}/A/{table}", st.keys[f"{EVENT}/A/{table}"]).start()
    try:
        ctl.setup({"event": EVENT, "section": "A", "table": table, "round": 1, "boards": [1], "ns_pair": table,
                   "ew_pair": 10 + table, "profile": profile, "policy": "record", "td_pin": "2468", "tables": 4})
        ctl.box_event("N", "call", call="1NT")
        ctl.box_event("E", "call", call="1S")
        ctl.box_event("W", "td")
        ctl.td_decide("2468", "accept")
        assert ctl.td_attended("2468")
        for s in "SWN":
            ctl.box_event(s, "call", call="P")
        assert d.drain(30), d.last_error
    finally:
        d.stop()
        ctl.close()


def test_2017_L27A1_the_danish_td_reads_seat_irregularity_law_and_ruling(sqlite_station, tmp_path):
    st = sqlite_station
    play_a_ruled_board(st, tmp_path, "dbf-2017", 3)
    page = get(st, f"/director/table?event={quote(EVENT)}&section=A&table=3&lang=da")
    assert '<html lang="da">' in page
    calls = rows_of(page, "td-call")
    # the table's own call (resolved once ruled) and West's TD key, each launched then resolved
    table_calls = [r for r in calls if "bordet tilkaldte" in r]
    named = IRREGULARITIES[IrregularityKind.INSUFFICIENT_BID]["da"]  # the tablet's words too
    assert table_calls and all("(overtræder: Ø)" in r and named in r and "Lov 27 (2017)" in r
                               for r in table_calls)
    assert any("afklaret" in r and "accepteret (Lov 27A1 (2017))" in r for r in table_calls)
    assert any("tilkaldt af V" in r and "TL-knappen" in r for r in calls)
    irr = rows_of(page, "irregularity")
    assert len(irr) == 1 and named in irr[0] and " Ø " in f" {irr[0]} "
    assert "accepteret (Lov 27A1 (2017))" in irr[0]
    assert "insufficient_bid" not in page and "accepted" not in page


@pytest.mark.server  # starts its own station (with --language)
def test_2007_L27A1_the_swedish_page_by_the_clubs_language(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--language", "sv"]).start()
    try:
        play_a_ruled_board(st, tmp_path, "fsb-2007", 2)
        page = get(st, f"/director/table?event={quote(EVENT)}&section=A&table=2")
        assert '<html lang="sv">' in page
        rows = rows_of(page, "td-call")
        named = IRREGULARITIES[IrregularityKind.INSUFFICIENT_BID]["sv"]
        assert any("bordet tillkallade (felande: Ö)" in r and named in r and "Lag 27 (2007)" in r
                   and "accepterat (Lag 27A1 (2007))" in r for r in rows)
        assert any("tillkallad av V" in r for r in rows)
        assert '<html lang="en">' in get(st, f"/director?event={quote(EVENT)}&lang=en")  # ?lang= wins
        assert "Öppna TL-tillkallelser" in get(st, f"/director?event={quote(EVENT)}")
    finally:
        st.stop()


MEASURE = """<script id="measure-script">
for (const d of document.querySelectorAll('details')) d.open = true;
const clipped = [];
for (const el of document.querySelectorAll('body *')) {
  const cs = getComputedStyle(el);
  if (cs.display === 'inline' || cs.display === 'none' || el.id === 'measure-script') continue;
  if (el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth + 1)
    clipped.push(el.tagName + '.' + el.className + ': ' + el.textContent.trim().slice(0, 80));
}
const head = document.querySelector('tr.head');
const out = {width: window.innerWidth, page: document.documentElement.scrollWidth, clipped,
             cards: head !== null && getComputedStyle(head).display === 'none',
             hostile: document.querySelectorAll('.hostile').length, text: document.body.innerText};
const pre = document.createElement('pre'); pre.id = 'measured'; pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""


def measure(chromium, pages: list[tuple[str, int, int, pathlib.Path]]) -> list[dict]:
    """Each (page as served, width, height, file) laid out by Chromium in a frame of width x
    height (a headless window is at least 500 px wide: a phone's width needs a frame), measured by
    a script added at its end (the station's pages allow no script: the file is a copy). One
    Chromium lays out every frame (each frame has its own viewport, as a window of its size)."""
    frames = []
    for k, (page, width, height, path) in enumerate(pages):
        path.write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
        frames.append(f'''<iframe src="{path.name}" width="{width}" height="{height}" style="border:0;display:block"
 onload="document.getElementById('out{k}').textContent =
   this.contentDocument.getElementById('measured').textContent"></iframe><pre id="out{k}"></pre>''')
    frame = pages[0][3].with_suffix(".frame.html")
    frame.write_text('<!DOCTYPE html><html><body style="margin:0">' + "\n".join(frames) + "</body></html>",
                     encoding="utf-8")
    out = chromium.run(["--window-size=1280,900", "--allow-file-access-from-files", "--dump-dom", frame.as_uri()])
    assert out.returncode == 0, out.stderr[-2000:]
    measured = []
    for k in range(len(pages)):
        m = re.search(rf'<pre id="out{k}">(.*?)</pre>', out.stdout, re.S)
        assert m and m.group(1), (k, out.stdout[-2000:])
        measured.append(json.loads(unescape(m.group(1))))
    return measured


def test_the_swedish_and_danish_pages_fit_a_desk_and_a_phone_and_escape_names(sqlite_station, chromium, tmp_path):
    st = sqlite_station
    client = DataConnectorClient("club-7", st.token, st.url)
    ok(client.initialize(pairs_init(SLOTS)))
    ok(client.send_player_data(GUID, [
        PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number="1001", first_name="Anna-Karin",
                      last_name="Wahlström-Öberg-Långnamnsdotter"),
        PlayerDataDTO(session_guid=GUID, club_id="club-7", player_number="1002", first_name="Åke",
                      last_name=HOSTILE_NAME)]))
    ok(client.send_participations(GUID, [
        seat(1, "N", "1001"), seat(1, "S", first_name="Carl", last_name="Dahl"),
        seat(1, "E", "1002"), seat(1, "W", first_name="Eva", last_name="Ek & Co"),
        seat(2, "N", first_name="Gun", last_name="Holm"), seat(2, "E", first_name="Ivar", last_name="Jonsson")]))
    play_a_ruled_board(st, tmp_path, "dbf-2017", 3)
    hostile = {"event": EVENT, "section": "A", "table": 4, "round": 1, "board": 2, "call": 1, "seat": "E",
               "status": "launched", "at": "2026-11-22T19:42:00Z", "reason": HOSTILE_REASON,
               "note": HOSTILE_REASON, "key": f"{EVENT}/A/4/td/1/launched"}
    assert st.post_item("td_call", hostile)[0] == 201
    assert st.post_item("result", result_record(table=1, board=1, ns_pair=1, ew_pair=11))[0] == 201
    adjusted = result_record(table=2, board=3, ns_pair=3, ew_pair=12, contract=None, declarer=None, tricks=None,
                             score_ns=None, adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-"})
    assert st.post_item("result", adjusted)[0] == 201
    shots = ROOT / "build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    directors, frames = {}, []
    for lang in ("sv", "da"):
        pages = {"director": get(st, f"/director?event={quote(EVENT)}&lang={lang}"),
                 "table1": get(st, f"/director/table?event={quote(EVENT)}&section=A&table=1&lang={lang}"),
                 "table3": get(st, f"/director/table?event={quote(EVENT)}&section=A&table=3&lang={lang}")}
        assert HOSTILE_REASON not in pages["director"] and "<img" not in pages["table1"]
        directors[lang] = pages["director"]
        frames += [(lang, name, page, width, height) for name, page in pages.items()
                   for width, height in ((1024, 768), (390, 844))]
    # both languages' frames laid out by one Chromium (one start less: each costs seconds)
    measured = measure(chromium, [(page, width, height, tmp_path / f"{name}-{lang}-{width}.html")
                                  for lang, name, page, width, height in frames])
    for (lang, name, _, width, _), got in zip(frames, measured, strict=True):
        where = (lang, name, width)
        assert got["width"] == width, where  # the viewport asked for
        assert got["page"] <= width, (where, got["page"])
        assert got["clipped"] == [], (where, got["clipped"])
        assert got["hostile"] == 0, where  # the name and the reason stayed text
        assert got["cards"] == (width < 760), where  # a phone: a card per row, labelled
        if name == "table1":
            assert HOSTILE_NAME in got["text"], where
        if name == "director":
            assert HOSTILE_REASON in got["text"], where
    for lang in ("sv", "da"):
        # The Swedish and Danish pages on a phone, for docs/station.md (make screenshots).
        (tmp_path / f"shown-{lang}.html").write_text(directors[lang], encoding="utf-8")
        (tmp_path / f"shot-{lang}.html").write_text(
            f'<body style="margin:0"><iframe src="shown-{lang}.html" width="390" height="900" style="border:0">'
            "</iframe></body>", encoding="utf-8")
        out = chromium.run(["--window-size=390,900", f"--screenshot={shots / f'station-director-{lang}-phone.png'}",
                            (tmp_path / f"shot-{lang}.html").as_uri()])
        assert out.returncode == 0 and (shots / f"station-director-{lang}-phone.png").read_bytes()[:4] == b"\x89PNG"
