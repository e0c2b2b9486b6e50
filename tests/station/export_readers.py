"""Independent readers of the station's export files, for the tests.

- PBN bytes are decoded as the standard says a reader must (UTF-8 when the file starts with the
  byte order mark, else ISO 8859/1), then read by endplay. endplay 0.5.12 knows neither the
  irregularity tokens `^I`/`^S` nor comments inside an auction line: `for_endplay` checks and
  removes them first, so endplay still reads every call, contract, declarer, result and deal.
- USEBIO is validated by libxml2 (lxml) against a DTD of the USEBIO 1.2 structure
  (data/usebio-1.2.dtd), not by our own code.
"""
from __future__ import annotations

import pathlib
import re

from endplay.parsers import pbn as endplay_pbn
from lxml import etree

DTD = pathlib.Path(__file__).parent / "data" / "usebio-1.2.dtd"
BOM = b"\xef\xbb\xbf"
TAG_LINE = re.compile(r'^\[([A-Z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')
COMMENT_LINE = re.compile(r"^\{[^{}]*\}$")
CALL = r"(?:\^I )?(?:Pass|X|XX|[1-7](?:NT|[CDHS])|-)(?: =\d{1,2}=)?(?: \{[^{}]*\})?"
AUCTION_LINE = re.compile(rf"^(?:\^S|{CALL})(?: (?:\^S|{CALL}))*$")
PLAY_LINE = re.compile(r"^(?:[SHDC][AKQJT2-9]|-)(?: (?:[SHDC][AKQJT2-9]|-)){0,3}$|^\*$")
TIME_ROW = re.compile(r"^(?:\?|-|\d\d:\d\d(?::\d\d)?) (?:\?|-|\d\d:\d\d(?::\d\d)?)$")


def conforming_text(raw: bytes) -> str:
    """PBN 2.1: UTF-8 only when the file starts with the UTF-8 byte order mark; without it the
    bytes are ISO 8859/1 (PBN 2.0 section 2.2)."""
    if raw.startswith(BOM):
        return raw[len(BOM):].decode("utf-8")
    return raw.decode("latin-1")


def games(text: str) -> list[list[str]]:
    """The games of an export file (an empty line before each, section 3), as lines."""
    body = text.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in text else ""
    return [g.strip("\r\n").split("\r\n") for g in body.split("\r\n\r\n") if g.strip()]


def check_export_lines(text: str) -> None:
    """Every line is one of what export format allows where it stands: % lines, tag pairs,
    comment lines, auction / play lines, time-table rows; CRLF only; at most 255 characters."""
    assert "\n" not in text.replace("\r\n", ""), "a bare LF or CR"
    for game in games(text):
        section = None
        for line in game:
            assert len(line) + 2 <= 255, line
            m = TAG_LINE.match(line)
            if m:
                if m.group(1) in ("Auction", "Play", "AuctionTimeTable"):
                    section = m.group(1)
                elif m.group(1) != "Note":  # notes close their auction or play section
                    section = None
                continue
            if COMMENT_LINE.match(line):
                continue
            pattern = {"Auction": AUCTION_LINE, "Play": PLAY_LINE, "AuctionTimeTable": TIME_ROW}.get(section or "")
            assert pattern is not None and pattern.match(line), f"not export format: {line!r}"


def tags(game: list[str]) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(TAG_LINE.match, game) if m]


def for_endplay(text: str) -> str:
    """Auction lines without ^I / ^S / inline comments; comment-only lines dropped."""
    out = []
    for line in text.split("\r\n"):
        if COMMENT_LINE.match(line):
            continue
        if not line.startswith(("[", "%")):
            line = re.sub(r" ?\{[^{}]*\}", "", line).replace("^I ", "").replace("^S ", "").replace("^S", "")
        out.append(line.strip())
    return "\r\n".join(out)


def endplay_boards(raw: bytes) -> list:
    return endplay_pbn.loads(for_endplay(conforming_text(raw)))


def usebio_tree(raw: bytes) -> etree._Element:
    """Parse and validate against the USEBIO 1.2 DTD (raises with libxml2's reason)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.fromstring(raw, parser)
    dtd = etree.DTD(str(DTD))
    if not dtd.validate(root):
        raise AssertionError(f"USEBIO not valid against the 1.2 DTD: {dtd.error_log.filter_from_errors()}")
    return root
