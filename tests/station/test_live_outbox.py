"""The tablet's outbox with the per-call items: waiting items go in one request to the station,
in order, each stored once; a station from before the live feed (no batches, no auction events)
still gets everything else, and the tablet's director console lists nothing as refused."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tablet_app.controller import Controller
from tablet_app.outbox import Deliverer

from .conftest import EVENT, StationProcess
from .live_play import play_auction

pytestmark = pytest.mark.server  # starts the results station as a process

SETUP = {"event": EVENT, "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
         "profile": "dbf-2017", "policy": "record", "td_pin": "1234", "boards": [1, 2]}


def played(ctl: Controller) -> None:
    play_auction(ctl, 1, "3NT", alert_first=True)
    ctl.enter_result(9, "SA")
    assert ctl.ew_confirm(True) is not None


def test_waiting_items_go_in_one_request_in_order_each_stored_once(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--access-log"]).start()
    ctl = Controller(tmp_path / "t.db")
    d = None
    try:
        ctl.setup(SETUP)
        played(ctl)  # the pump is not running yet: every item waits
        queued = [it["key"] for it in ctl.outbox.items("pending")]
        assert sum(1 for k in queued if "/event/" in k) == 5  # four calls and the alert
        d = Deliverer(str(tmp_path / "t.db"), st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"], timeout=5).start()
        assert d.drain(30), d.last_error
        assert ctl.outbox.counts() == {"pending": 0, "delivered": len(queued), "rejected": 0, "skipped": 0}
        log = st.out.decode()
        assert log.count('"POST /api/v1/items/batch" 200') == 1 and '"POST /api/v1/items" ' not in log, log
        code, doc = st.request("GET", "/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
        assert sorted(doc["stored_keys"]) == sorted(queued)
    finally:
        if d is not None:
            d.stop()
        ctl.close()
        st.stop()


class OldStation(BaseHTTPRequestHandler):
    """The station's answers before the live feed: no batch address, no auction_event kind."""

    posted: list[tuple[str, str]] = []

    def log_message(self, *args):  # noqa: D401 - quiet
        pass

    def do_POST(self):  # noqa: N802 - stdlib naming
        doc = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/api/v1/items":
            return self._reply(404, {"error": f"no such page: {self.path}", "status": 404})
        self.posted.append((doc["kind"], doc["key"]))
        if doc["kind"] not in ("result", "td_call", "auction"):
            return self._reply(422, {"error": f"kind: expected one of result, td_call, auction, got {doc['kind']!r}",
                                     "status": 422})
        return self._reply(201, {"status": "stored", "key": doc["key"], "id": len(self.posted)})

    def _reply(self, status: int, doc: dict) -> None:
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_a_station_from_before_the_live_feed_gets_everything_else(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), OldStation)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ctl = Controller(tmp_path / "t.db")
    d = None
    try:
        ctl.setup(SETUP)
        played(ctl)
        d = Deliverer(str(tmp_path / "t.db"), f"http://127.0.0.1:{server.server_address[1]}", f"{EVENT}/A/1",
                      "KEY", timeout=5, min_backoff=0.05).start()
        assert d.drain(30), d.last_error
        counts = ctl.outbox.counts()
        # the five auction events and the round start: kinds a station from before them refuses
        assert counts["rejected"] == 0 and counts["skipped"] == 6 and counts["pending"] == 0
        kinds = [k for k, _ in OldStation.posted]
        assert kinds.count("auction_event") == 1  # refused once; the others are not sent again
        assert {"result", "auction"} <= set(kinds)
        assert ctl.outbox.delivery()["refused"] == []
    finally:
        if d is not None:
            d.stop()
        ctl.close()
        server.shutdown()
