"""The tablets' station address as a QR code, so that nobody types it: the station prints it in
its terminal at start and the director page shows it beside the printed address (docs/station.md,
"Set up the tablets"). It is read by a phone's or tablet's camera app or by a barcode scanner
that types what it reads; the table app itself does not scan (docs/tablet.md).

Drawn with the pinned `segno` encoder: always a full QR code (never a Micro QR, which phone
cameras do not read), from the address alone, so the page's SVG carries no text of its own."""
from __future__ import annotations

import functools
import io

import segno


def _qr(url: str) -> segno.QRCode:
    # at least level M (15 % of the code may be lost): a camera reads a screen with glare or a
    # finger on it; segno raises it further when the code's size allows
    return segno.make_qr(url, error="m")


def terminal_text(url: str) -> str:
    """The QR code in Unicode half blocks, two modules a character row, with its quiet zone.

    segno draws the light modules as blocks: it reads on a terminal with light text on a dark
    background (the usual one); on a light background a phone camera still reads it inverted."""
    out = io.StringIO()
    _qr(url).terminal(out=out, compact=True)
    return out.getvalue()


def printable(text: str, encoding: str | None) -> bool:
    """Whether a stream in `encoding` can carry the half blocks (a Windows code page cannot)."""
    try:
        text.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@functools.lru_cache(maxsize=4)  # the page refreshes every 5 s; the address changes only at start
def svg_html(url: str) -> str:
    """An inline `<svg>` (no XML declaration, no script, no style, no text) for the HTML page."""
    return _qr(url).svg_inline(scale=4, svgclass="tablet-qr", lineclass=None)
