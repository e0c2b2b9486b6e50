"""Independent readers of the station's export files, for the tests.

- PBN bytes are decoded as the standard says a reader must (UTF-8 when the file starts with the
  byte order mark, else ISO 8859/1), then read by endplay. endplay 0.5.12 knows neither the
  irregularity tokens `^I`/`^S` nor comments inside an auction line: `for_endplay` checks and
  removes them first, so endplay still reads every call, contract, declarer, result and deal.
- USEBIO is parsed by libxml2 (lxml, no entities, no network); whether other programs can read
  it is checked with their own reading logic (usebio_readers.py: cobalt, ImportUsebio).
"""
from __future__ import annotations

import re

from endplay.parsers import pbn as endplay_pbn
from lxml import etree

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
    """Parse (libxml2: well-formed, no entities, no network) and check the file is USEBIO 1.2."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.fromstring(raw, parser)
    assert root.tag == "USEBIO" and root.get("Version") == "1.2", root.tag
    return root


def pair_no(label: str | None) -> int:
    """A USEBIO pair number as the station writes it (`1NS`, `1EW` in a Mitchell, `3` in a
    Howell) -> the number."""
    m = re.match(r"^(\d+)(?:NS|EW)?$", label or "")
    assert m, f"not a pair number: {label!r}"
    return int(m.group(1))


def usebio_sections(root: etree._Element, single: str = "A") -> dict[str, etree._Element]:
    """section letters -> the element holding its PARTICIPANTS and BOARDs: the SECTIONs of a
    file of several, the EVENT itself of a file of one (as Compscore writes it; `single` is
    its letter, which such a file does not say)."""
    ev = root.find("EVENT")
    found = {s.get("SECTION_ID"): s for s in ev.findall("SECTION")}
    return found or {single: ev}
