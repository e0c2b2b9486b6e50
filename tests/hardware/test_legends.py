"""The key-legend sheets: every key of the firmware's keypad has its legend in Swedish, Danish and
English, sized to the key cap's top, the calls as the law texts write them; the SVG and the PDF
are well formed, and the sheets in docs/ are the ones the code writes."""
import re
import xml.etree.ElementTree as ET

import pytest

from hardware.enclosure import legends, parts
from tests.conftest import ROOT


@pytest.mark.parametrize("lang", legends.LANGS)
def test_every_fitted_key_has_a_legend_that_fits_the_cap(lang):
    squares, texts = legends.sheet(lang)
    tokens = [t for row in legends.keys() for t in row if t]
    assert len(tokens) == 23
    assert len(squares) == 4 * len(tokens)        # four boxes to a table
    side = parts.KEYCAP.legend
    assert all(s.side == side for s in squares)
    assert side <= parts.KEYCAP.side
    keys = texts[2:]                              # after the title and the printing note
    assert len(keys) == len(squares)
    for s, t in zip(squares, keys, strict=True):
        assert abs(t.x - (s.x + side / 2)) < 1e-9
        width = 0.753 * t.size if t.symbol else legends.text_width(t.text, t.size)
        assert width <= 0.9 * side, (lang, t.text)
        assert s.y < t.y < s.y + side             # the baseline inside the square


def test_the_calls_as_each_language_writes_them():
    # Pass / Pas (2007 L18A in Swedish, 2017 § 18A in Danish), NT / UT, X and XX as on the display
    assert [legends.legend("P", lang) for lang in ("sv", "da", "en")] == ["Pass", "Pas", "Pass"]
    assert [legends.legend("NT", lang) for lang in ("sv", "da", "en")] == ["NT", "UT", "NT"]
    assert {legends.legend("X", lang) for lang in legends.LANGS} == {"X"}
    assert {legends.legend("XX", lang) for lang in legends.LANGS} == {"XX"}
    assert legends.legend("STOP", "sv") == "STOPP"              # FSB L116B
    assert [legends.legend(s, "da") for s in "CDHS"] == ["\u2663", "\u2666", "\u2665", "\u2660"]


@pytest.mark.parametrize("lang", legends.LANGS)
def test_the_svg_is_well_formed_and_a4(lang):
    root = ET.fromstring(legends.svg(lang))
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert len(root.findall(".//s:rect", ns)) == 92
    words = {t.text for t in root.findall(".//s:text", ns)}
    assert legends.legend("P", lang) in words and legends.legend("REVIEW", lang) in words


@pytest.mark.parametrize("lang", legends.LANGS)
def test_the_pdf_is_well_formed(lang):
    data = legends.pdf(lang)
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n", data)]
    for n, off in enumerate(offsets, 1):
        assert data[off:].startswith(f"{n} 0 obj".encode())
    length = int(re.search(rb"/Length (\d+)", data).group(1))
    stream = data.index(b"stream\n") + len(b"stream\n")
    assert data[stream + length:].startswith(b"endstream")
    assert legends.legend("P", lang).encode("cp1252") in data
    assert data.count(b"re S") == 92


def test_the_sheets_in_docs_are_the_ones_the_code_writes():
    for lang in legends.LANGS:
        assert (ROOT / "docs" / f"key-legends-{lang}.svg").read_text() == legends.svg(lang), lang
        assert (ROOT / "docs" / f"key-legends-{lang}.pdf").read_bytes() == legends.pdf(lang), lang
