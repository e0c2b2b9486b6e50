"""The live feed as plain HTTP that any cache can fan out (docs/station.md "The live feed"): every
page and file carries an ETag and `Cache-Control: public, max-age=1`, answers 304 to its own ETag
and 200 with a new one once it has changed; the push stream is never cached nor buffered; the long
poll goes on from a reconnecting browser's Last-Event-ID (newer than the address it first used); a
quiet stream gets a keep-alive comment."""
from __future__ import annotations

import http.client

import pytest

from .conftest import StationProcess
from .live_play import Spectator, calls_of
from .test_live_feed import event_item

pytestmark = pytest.mark.server  # starts the results station as a process

ONE = {"seat": "N", "call": "1C", "alerted": False, "stop": False, "think": 2.0}
TWO = {"seat": "E", "call": "1H", "alerted": False, "stop": False, "think": 3.0}


def get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


def test_each_page_and_file_answers_304_to_its_etag_until_it_changes(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    try:
        assert st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), what="the first call")
        assert spectator.headers["cache-control"] == "no-cache" and spectator.headers["x-accel-buffering"] == "no"
        tags = {}
        for path in ("/live/", "/live/A/1.lin", "/live/page.js", "/live/page.css"):
            code, head, body = get(st.live_port, path)
            assert code == 200 and body and head["etag"], path
            assert head["cache-control"] == ("public, max-age=300" if path.endswith((".js", ".css"))
                                             else "public, max-age=1"), path
            code, again, body = get(st.live_port, path, {"If-None-Match": head["etag"]})
            assert code == 304 and body == "" and again["etag"] == head["etag"], path
            tags[path] = head["etag"]
        # The next call: the page and the table's file change, and so do their ETags.
        assert st.post_item("auction_event", event_item(2, [ONE, TWO], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A1", 1)), what="the second call")
        for path in ("/live/", "/live/A/1.lin"):
            code, head, body = get(st.live_port, path, {"If-None-Match": tags[path]})
            assert code == 200 and head["etag"] != tags[path], path
        assert "mb|1C|mb|1H|" in body
        # The static files have not changed.
        assert get(st.live_port, "/live/page.js", {"If-None-Match": tags["/live/page.js"]})[0] == 304
    finally:
        spectator.stop()
        st.stop()


def test_a_reconnecting_browser_goes_on_from_its_last_event_id_not_the_address_it_first_used(tmp_path):
    """EventSource reconnects to the address it was given (`?after=` as the page was loaded) and
    adds Last-Event-ID: the newer number wins, so the browser is not sent again what it has."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    try:
        assert st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), what="the first call")
        first = int(spectator.last_id or 0)
        assert st.post_item("auction_event", event_item(2, [ONE, TWO], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A1", 1)), what="the second call")
        code, _, text = get(st.live_port, f"/live/poll?after={first - 1}", {"Last-Event-ID": str(first)})
        assert code == 200 and '"call":"1H"' in text
        assert f"id: {first}\n" not in text  # the event the browser had is not sent again
    finally:
        spectator.stop()
        st.stop()


def test_a_quiet_stream_gets_a_keep_alive_comment_so_a_proxy_keeps_it_open(tmp_path):
    """Every `--live-keepalive` seconds (15 by default; 1 here, the same code) a quiet stream gets
    a comment line: after the snapshot, and again while nothing happens."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live", "--live-keepalive", "1"]).start()
    conn = http.client.HTTPConnection("127.0.0.1", st.live_port, timeout=60)  # a hang guard, not a speed assert
    try:
        conn.request("GET", "/live/stream", headers={"Accept": "text/event-stream"})
        r = conn.getresponse()
        assert r.status == 200
        lines = []
        while lines.count(b": keep-alive\n") < 2:
            lines.append(r.readline())  # the body's lines (not the chunks' framing)
            assert lines[-1], lines  # the station did not end the stream
        # nothing has happened: the snapshot, then only comments
        assert b"event: snapshot\n" in lines
        after = lines[lines.index(b"event: snapshot\n") + 2:]
        assert set(after) <= {b": keep-alive\n", b"\n"}, after
    finally:
        conn.close()
        st.stop()
