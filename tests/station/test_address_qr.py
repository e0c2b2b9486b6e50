"""The tablets' station address as a QR code (docs/station.md, "Set up the tablets"): what the
station prints in its terminal at start and the SVG on the director page both decode, with an
independent decoder (zxing-cpp), to the address the station printed, and a tablet given the
decoded address reaches the station over real HTTP(S), its certificate pinned."""
from __future__ import annotations

import http.client
import io
import re
import ssl
import sys

import numpy as np
import pytest
import zxingcpp

from station import lan_qr
from station.__main__ import _print_address_qr
from tablet_app.station_client import StationError, table_id

from .conftest import EVENT, StationProcess

HALF_BLOCKS = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}  # (top, bottom) dark
QR_HEADER = "the same address as a QR code"


def decode(dark: np.ndarray) -> list[str]:
    """What zxing-cpp reads in a module matrix (True dark), drawn 8 px a module, white around."""
    img = np.where(dark, 0, 255).astype(np.uint8)
    img = np.pad(img, 4, constant_values=255).repeat(8, axis=0).repeat(8, axis=1)
    return [r.text for r in zxingcpp.read_barcodes(img) if r.format == zxingcpp.BarcodeFormat.QRCode]


def terminal_modules(text: str) -> np.ndarray:
    """The modules of a QR code drawn in half blocks: each character is two modules, one above
    the other; segno draws the light ones, so a block is light and a space is dark."""
    rows = [line for line in text.splitlines() if line and set(line) <= set(HALF_BLOCKS)]
    assert rows and len({len(r) for r in rows}) == 1, text
    return np.array([[HALF_BLOCKS[c][half] for c in row] for row in rows for half in (0, 1)], dtype=bool)


def printed_qr(startup_text: str) -> str:
    """The lines the station printed after its QR header, up to its next message."""
    after = startup_text.split(QR_HEADER, 1)[1].split("\n", 1)[1]
    return after.split("station:", 1)[0]


def svg_modules(svg: str) -> np.ndarray:
    """The modules of segno's inline SVG, read from its path as a browser draws it: `M`/`m` move,
    each `h` strokes one module high (stroke width 1, centred half a module below the row's top)."""
    width, scale, path = (re.search(pattern, svg) for pattern in
                          (r'<svg width="(\d+)"', r'transform="scale\((\d+)\)"', r' d="([^"]+)"'))
    assert width and scale and path, svg
    n = int(width.group(1)) // int(scale.group(1))
    dark = np.zeros((n, n), dtype=bool)
    x = y = 0.0
    for cmd, args in re.findall(r"([A-Za-z])([^A-Za-z]*)", path.group(1)):
        nums = [float(v) for v in args.replace(",", " ").split()]
        if cmd == "M":
            x, y = nums
        elif cmd == "m":
            x, y = x + nums[0], y + nums[1]
        elif cmd == "h":
            dark[int(y - 0.5), int(x):int(x + nums[0])] = True
            x += nums[0]
        else:
            raise AssertionError(f"path command {cmd!r} not read by this test")
    return dark


@pytest.mark.server  # the station's own address and QR modules
def test_the_terminal_and_the_svg_decode_to_the_address_and_to_nothing_else():
    url = "https://192.168.1.20:8080/#sha256=" + "0123456789abcdef" * 4
    other = "https://192.168.1.21:8080/#sha256=" + "0123456789abcdef" * 4
    assert decode(terminal_modules(lan_qr.terminal_text(url))) == [url]
    assert decode(svg_modules(lan_qr.svg_html(url))) == [url]
    # the decoder tells one address from its neighbour: a QR code of another address fails the test
    assert decode(svg_modules(lan_qr.svg_html(other))) == [other] != [url]


@pytest.mark.server
def test_the_svg_is_inline_and_carries_no_text_link_script_or_style():
    svg = lan_qr.svg_html("http://10.0.0.2:8080/")
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert not re.search(r"<\?xml|script|style|href|<text|10\.0\.0\.2", svg)


@pytest.mark.server
@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_a_console_that_cannot_draw_half_blocks_is_sent_to_the_director_page(monkeypatch, encoding):
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding=encoding)
    monkeypatch.setattr(sys, "stdout", out)
    _print_address_qr("http://10.0.0.2:8080/")
    out.flush()
    text = raw.getvalue().decode(encoding)
    if encoding == "utf-8":
        assert decode(terminal_modules(text)) == ["http://10.0.0.2:8080/"]
    else:  # a Windows code page: no half blocks, one line saying where the QR code is
        assert text == "station: this terminal cannot draw the address's QR code; the director page shows it\n"


def director_page(st: StationProcess, tls: bool) -> str:
    conn = http.client.HTTPSConnection("127.0.0.1", st.port, timeout=30,
                                       context=ssl._create_unverified_context()) if tls else \
        http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    try:
        conn.request("GET", "/director", headers={"Authorization": f"Bearer {st.token}"})
        resp = conn.getresponse()
        assert resp.status == 200
        return resp.read().decode()
    finally:
        conn.close()


@pytest.mark.server  # starts the results station as a process
@pytest.mark.parametrize("tls", [True, False], ids=["https-pinned", "insecure-http"])
def test_the_printed_and_shown_qr_codes_take_a_tablet_to_the_station(tmp_path, tls):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tls"] if tls else []).start()
    try:
        printed = re.search(r"tablets' station address (\S+)", st.startup_text).group(1)
        assert printed.startswith(f"{'https' if tls else 'http'}://127.0.0.1:{st.port}/")
        assert ("#sha256=" in printed) == tls
        assert decode(terminal_modules(printed_qr(st.startup_text))) == [printed]
        page = director_page(st, tls)
        block = re.search(r'<p id="tablet-address-qr">(<svg .*?</svg>)</p>', page, re.S)
        assert block is not None and f"<code>{printed}</code>" in page
        (shown,) = decode(svg_modules(block.group(1)))
        assert shown == printed
        # a tablet given the decoded address reaches the station (over TLS: pinned to the
        # fingerprint the QR code carries)
        assert table_id(shown, "2") == f"{EVENT}/A/2"
        if tls:
            wrong_pin = shown[:-1] + ("0" if shown[-1] != "0" else "1")
            with pytest.raises(StationError):
                table_id(wrong_pin, "2")
    finally:
        st.stop()


@pytest.mark.server
def test_chromium_draws_the_director_pages_qr_code_under_its_content_security_policy(tmp_path, chromium):
    """The page as the TD's browser shows it: the fragment opens "Table keys" (a browser opens a
    `<details>` holding the fragment's target), and the screenshot's QR code reads as the address."""
    from PIL import Image

    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        printed = re.search(r"tablets' station address (\S+)", st.startup_text).group(1)
        shot = tmp_path / "director.png"
        out = chromium.run(["--window-size=1000,900", f"--screenshot={shot}",
                            f"http://127.0.0.1:{st.port}/director?token={st.token}#tablet-address-qr"])
        assert out.returncode == 0, out.stderr[-2000:]
        read = [r.text for r in zxingcpp.read_barcodes(Image.open(shot))]
        assert read == [printed]
    finally:
        st.stop()
