"""The live feed behind nginx, with the configuration in docs/live-nginx.conf (its ports and paths
only changed for the test): the page, a table's LIN (the second reading a cache hit), the push
stream passed through as it comes, and the long poll answered once by the station for two
spectators waiting at the same event (the cache's lock)."""
from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import threading
import time

import pytest

from .conftest import ROOT, StationProcess, free_port
from .live_play import Spectator, calls_of
from .test_live_feed import event_item

pytestmark = pytest.mark.server  # starts the results station (and nginx) as processes

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


def get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


@pytest.fixture
def nginx_in_front(tmp_path):
    if NGINX is None:
        pytest.skip("nginx not installed (scripts/setup-system.sh installs it): the feed behind a cache not tried")
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live", "--access-log"]).start()
    port = free_port()
    conf = (ROOT / "docs" / "live-nginx.conf").read_text()
    for old, new in (("listen 8081;", f"listen 127.0.0.1:{port};"), ("server 127.0.0.1:5080;", f"server 127.0.0.1:{st.live_port};"),
                     ("/var/cache/nginx/bridge-live", str(tmp_path / "cache"))):
        assert old in conf
        conf = conf.replace(old, new)
    (tmp_path / "nginx.conf").write_text(conf)
    (tmp_path / "logs").mkdir()
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g",
                             f"daemon off; user root; pid {tmp_path}/nginx.pid; error_log {tmp_path}/logs/error.log;"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60  # ends a hang
    while True:
        try:
            get(port, "/live/")
            break
        except OSError:
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
    try:
        yield st, port
    finally:
        proc.terminate()
        proc.wait(10)
        st.stop()


def test_the_page_the_lin_and_the_stream_through_nginx(nginx_in_front):
    st, port = nginx_in_front
    one = {"seat": "N", "call": "1C", "alerted": True, "stop": False, "think": 2.0}
    two = {"seat": "E", "call": "1H", "alerted": False, "stop": False, "think": 3.0}
    assert st.post_item("auction_event", event_item(1, [one], None, screens=False, table=1, board=1))[0] == 201
    spectator = Spectator(port).start()
    try:
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), what="through nginx")
        # A new call reaches the spectator through nginx as it comes (the stream is not buffered).
        assert st.post_item("auction_event", event_item(2, [one, two], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A1", 1)), what="the next call")
        assert spectator.headers["content-type"].startswith("text/event-stream")

        deadline = time.monotonic() + 30
        while True:  # a cache may give a copy up to a second old (max-age=1)
            code, head, page = get(port, "/live/")
            if '"table":"A1"' in page or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert code == 200 and '"table":"A1"' in page and "script-src 'self'" in head["content-security-policy"]
        time.sleep(1.1)  # any copy of the file from before the second call has expired
        code, head, first = get(port, "/live/A/1.lin")
        code2, head2, again = get(port, "/live/A/1.lin")
        assert code == code2 == 200 and first == again and "mb|1C!|mb|1H|" in first
        assert head2["x-cache-status"] == "HIT" and head["etag"] == head2["etag"]
        assert get(st.live_port, "/live/A/1.lin")[2] == first  # what the station itself says

        # Two spectators waiting at the same event: the station is asked once.
        seq = int(head["etag"].strip('"').rsplit("-", 1)[1])
        answers: list[str] = []
        waiting = [threading.Thread(target=lambda: answers.append(get(port, f"/live/poll?after={seq}")[2]))
                   for _ in range(2)]
        for t in waiting:
            t.start()
            # a pause, not an event: nothing outside nginx says a poll is waiting in its cache lock
            time.sleep(0.3)
        three = {"seat": "S", "call": "P", "alerted": False, "stop": False, "think": 1.0}
        assert st.post_item("auction_event", event_item(3, [one, two, three], None, screens=False,
                                                         table=1, board=1))[0] == 201
        for t in waiting:
            t.join(60)
        assert len(answers) == 2 and answers[0] == answers[1] and '"call":"P"' in answers[0]
        polls = st.out.decode().count('"GET /live/poll" 200')
        assert polls == 1, st.out.decode()[-2000:]
    finally:
        spectator.stop()
