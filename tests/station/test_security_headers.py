"""Every response of the station carries the browser security headers (a page of the station
cannot be framed, sniffed into another type or given a script), and the director pages'
Content-Security-Policy allows their one inline style by its hash and nothing else inline:
checked on the bytes served, and in Chromium, which must still draw the page as styled."""
import base64
import hashlib
import http.client
import re
import socket

import pytest

from .conftest import EVENT, result_record
from .test_director_page import auction

pytestmark = pytest.mark.server  # starts the results station as a process

WANT = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def fetch(st, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def policy(headers: dict) -> dict[str, str]:
    return {d.split()[0]: d.split(None, 1)[1] if " " in d.strip() else ""
            for d in (p.strip() for p in headers["content-security-policy"].split(";")) if d}


def assert_secure(status: int, headers: dict) -> None:
    for name, value in WANT.items():
        assert headers.get(name) == value, (status, name, headers)
    csp = policy(headers)
    assert csp["default-src"] == "'none'" and csp["frame-ancestors"] == "'none'", (status, csp)
    assert "script-src" not in csp and "'unsafe-inline'" not in headers["content-security-policy"]


def test_every_kind_of_response_carries_the_security_headers(sqlite_station):
    st = sqlite_station
    cookie = fetch(st, "POST", "/login", f"token={st.token}".encode(),
                   {"Content-Type": "application/x-www-form-urlencoded"})[1]["set-cookie"].split(";")[0]
    item = b'{"kind": "result", "key": "k", "payload": {}}'
    seen = set()
    for method, path, body, headers in [
        ("GET", "/", None, {}), ("GET", "/api/v1/health", None, {}), ("GET", "/login", None, {}),
        ("POST", "/login", b"token=wrong", {"Content-Type": "application/x-www-form-urlencoded"}),
        ("GET", "/director", None, {}), ("GET", "/director", None, {"Cookie": cookie}),
        ("GET", "/director/table?section=A&table=1", None, {"Cookie": cookie}),
        ("GET", "/director/status.json", None, {"Cookie": cookie}),
        ("GET", f"/export/pbn?event={EVENT}", None, {"Cookie": cookie}),
        ("POST", "/api/v1/items", item, st.table_headers(key="WRONG")),
        ("POST", "/api/v1/items", item, st.table_headers()), ("GET", "/nowhere", None, {}),
        ("DELETE", "/", None, {}), ("HEAD", "/", None, {}),
    ]:
        status, got, _ = fetch(st, method, path, body, headers)
        assert_secure(status, got)
        seen.add(status)
    assert {200, 403, 404, 405, 422} <= seen
    # The door's own replies: a head too big, and the 503 of an address over its share.
    with socket.create_connection(("127.0.0.1", st.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 20_000 + b"\r\n\r\n")
        reply = s.recv(65536)
    assert reply.startswith(b"HTTP/1.1 431")
    assert_secure(431, head_fields(reply))


def head_fields(reply: bytes) -> dict:
    head = reply.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in head)}


def test_the_busy_reply_at_the_door_carries_them_too(tmp_path):
    from .conftest import StationProcess

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--connections-per-address", "1"]).start()
    try:
        with socket.create_connection(("127.0.0.1", st.port), timeout=10):
            with socket.create_connection(("127.0.0.1", st.port), timeout=10) as second:
                reply = second.recv(4096)
        assert reply.startswith(b"HTTP/1.1 503")
        assert_secure(503, head_fields(reply))
    finally:
        st.stop()


def test_the_director_pages_allow_only_their_own_inline_style_by_hash(sqlite_station):
    st = sqlite_station
    cookie = {"Cookie": fetch(st, "POST", "/login", f"token={st.token}".encode(),
                              {"Content-Type": "application/x-www-form-urlencoded"})[1]["set-cookie"].split(";")[0]}
    assert st.post_item("result", result_record())[0] == 201
    for path in ("/director", "/director/table?section=A&table=1"):
        status, headers, body = fetch(st, "GET", path, None, cookie)
        page = body.decode()
        assert status == 200
        styles = re.findall(r"<style>(.*?)</style>", page, re.S)
        assert len(styles) == 1
        digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
        assert policy(headers)["style-src"] == f"'sha256-{digest}'"
        # nothing else inline a policy would have to allow
        assert "<script" not in page and not re.search(r"\sstyle=|\son[a-z]+=", page)


def test_chromium_draws_the_director_page_styled_under_its_policy(sqlite_station, chromium, tmp_path):
    """The late table's row is pink (#fcc) only if the browser applied the inline style."""
    from PIL import Image

    st = sqlite_station
    assert st.post_item("auction", auction(1, 1, 1, "bidding"))[0] == 201
    assert st.post_item("auction", auction(2, 2, 4, "bidding"))[0] == 201  # the field is on round 2: A1 late
    shot = tmp_path / "director.png"
    out = chromium.run(["--window-size=1000,640", f"--screenshot={shot}", f"{st.url}/director?token={st.token}"])
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Content Security Policy" not in out.stderr, out.stderr[-2000:]
    colours = dict((c, n) for n, c in Image.open(shot).convert("RGB").getcolors(1 << 20))
    assert colours.get((255, 204, 204), 0) > 1000
