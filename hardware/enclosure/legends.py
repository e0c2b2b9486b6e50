"""The key legends in Swedish, Danish and English: a sheet per language (SVG and PDF, A4) with
four sets of the box's keypad, one for each box of a table, at 1:1 on the keys' pitch.

Each legend is a square the size of the key cap's flat top (parts.KEYCAP.legend), to be printed
on self-adhesive film, cut on its grey line and laid on the cap. The keys are the firmware's
(hardware/pinmap.json's "keys" table, the same the schematic labels the switches with); the spare
positions are left blank. The choice of words and where each comes from is in hardware/enclosure.md
("Key legends").

The PDF is written directly (PDF 1.4 with the standard Helvetica-Bold and Symbol fonts, which every
reader has: Symbol carries the four suits), so no PDF library is needed.
"""
from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass

from hardware.enclosure import parts
from hardware.pcb import layout

PINMAP = pathlib.Path(__file__).resolve().parents[1] / "pinmap.json"
LANGS = ("sv", "da", "en")
A4 = (210.0, 297.0)

# What each key says, per language (the tokens are the firmware's). Numbers and suit symbols are
# the same everywhere.
WORDS: dict[str, dict[str, str]] = {
    "en": {"NT": "NT", "P": "Pass", "X": "X", "XX": "XX", "OK": "OK", "CLR": "CLR", "STOP": "STOP",
           "ALERT": "ALERT", "UNDO": "UNDO", "REVIEW": "REVIEW", "TD": "TD"},
    "sv": {"NT": "NT", "P": "Pass", "X": "X", "XX": "XX", "OK": "OK", "CLR": "RENSA", "STOP": "STOPP",
           "ALERT": "ALERT", "UNDO": "ÅNGRA", "REVIEW": "UPPREPA", "TD": "TL"},
    "da": {"NT": "UT", "P": "Pas", "X": "X", "XX": "XX", "OK": "OK", "CLR": "SLET", "STOP": "STOP",
           "ALERT": "ALERT", "UNDO": "FORTRYD", "REVIEW": "GENTAG", "TD": "TL"},
}
TITLES = {"en": "Bidding box key legends (English)", "sv": "Budlåda: tangenternas text (svenska)",
          "da": "Meldeboks: tasternes tekst (dansk)"}
HOW = {"en": "print at 100 %, cut on the grey line", "sv": "skriv ut i 100 %, klipp på den grå linjen",
       "da": "udskriv i 100 %, klip på den grå linje"}
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
BLACK, RED, GREEN, BLUE = (0.0, 0.0, 0.0), (0.80, 0.08, 0.12), (0.0, 0.50, 0.22), (0.05, 0.25, 0.70)
COLOURS = {"D": RED, "H": RED, "P": GREEN, "X": RED, "XX": BLUE, "STOP": RED, "ALERT": BLUE}

# Helvetica-Bold advance widths (per 1000 em, Adobe's AFM) of the letters the legends use: a
# word is set as large as fits the legend's width.
_WIDTHS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833,
                                                   722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611), strict=True))
_WIDTHS.update({"a": 556, "s": 556, "Å": 722, "Ø": 778, "Æ": 1000, "Ä": 722, "Ö": 778})
_DIGIT = 556
CAP_HEIGHT = 0.72      # Helvetica's capitals, of the font size


@dataclass(frozen=True)
class Text:
    x: float          # mm from the page's left edge, centre of the text
    y: float          # mm from the page's top edge, the baseline
    size: float       # font size, mm
    text: str
    colour: tuple[float, float, float]
    symbol: bool = False   # a suit: Symbol font


@dataclass(frozen=True)
class Square:
    x: float
    y: float
    side: float


def keys() -> list[list[str]]:
    return json.loads(PINMAP.read_text())["keypad"]["keys"]


def legend(token: str, lang: str) -> str:
    if token in SUITS:
        return SUITS[token]
    return WORDS[lang].get(token, token)


def text_width(text: str, size: float) -> float:
    return sum(_DIGIT if ch.isdigit() else _WIDTHS.get(ch, 722) for ch in text) / 1000 * size


def _fit(token: str, text: str, side: float) -> float:
    """Font size (mm) of a legend: digits and suits large, words as large as the square allows."""
    if token in SUITS or token.isdigit():
        return 0.75 * side
    return min(0.6 * side if len(text) <= 2 else 0.45 * side, 0.86 * side / (text_width(text, 1.0) or 1.0))


def sheet(lang: str) -> tuple[list[Square], list[Text]]:
    """The page's squares and texts: four keypads, two by two, each key on the board's pitch."""
    side = parts.KEYCAP.legend
    pitch = layout.KEY_PITCH
    grid = keys()
    block_w = (len(grid[0]) - 1) * pitch + side
    block_h = (len(grid) - 1) * pitch + side
    gap = 20.0
    left = (A4[0] - 2 * block_w - gap) / 2
    top = 40.0
    squares, texts = [], [Text(A4[0] / 2, 20.0, 5.0, TITLES[lang], BLACK),
                          Text(A4[0] / 2, 27.0, 3.0, f"{side:g} x {side:g} mm: {HOW[lang]}", BLACK)]
    for bi in range(2):
        for bj in range(2):
            ox, oy = left + bj * (block_w + gap), top + bi * (block_h + gap + 10.0)
            for r, row in enumerate(grid):
                for c, token in enumerate(row):
                    if not token:
                        continue
                    x, y = ox + c * pitch, oy + r * pitch
                    squares.append(Square(x, y, side))
                    text = legend(token, lang)
                    size = _fit(token, text, side)
                    baseline = y + side / 2 + CAP_HEIGHT * size / 2
                    texts.append(Text(x + side / 2, baseline, size, text, COLOURS.get(token, BLACK), token in SUITS))
    return squares, texts


# --- SVG ----------------------------------------------------------------------------------------

def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(lang: str) -> str:
    squares, texts = sheet(lang)
    w, h = A4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" viewBox="0 0 {w:g} {h:g}">',
           f'<title>{_esc(TITLES[lang])}</title>',
           '<g fill="none" stroke="#999999" stroke-width="0.2">']
    out += [f'<rect x="{s.x:.3f}" y="{s.y:.3f}" width="{s.side:g}" height="{s.side:g}"/>' for s in squares]
    out.append('</g>')
    out.append('<g font-family="Helvetica, Arial, \'DejaVu Sans\', sans-serif" font-weight="bold" text-anchor="middle">')
    for t in texts:
        out.append(f'<text x="{t.x:.3f}" y="{t.y:.3f}" font-size="{t.size:.3f}" fill="{_hex(t.colour)}">'
                   f'{_esc(t.text)}</text>')
    out.append('</g>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


# --- PDF ----------------------------------------------------------------------------------------

PT = 72 / 25.4
_SYMBOL = {"\u2663": 0xA7, "\u2666": 0xA8, "\u2665": 0xA9, "\u2660": 0xAA}
_SYMBOL_WIDTH = {0xA7: 753, 0xA8: 753, 0xA9: 753, 0xAA: 753}


def _pdf_string(data: bytes) -> bytes:
    return b"(" + data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _content(lang: str) -> bytes:
    squares, texts = sheet(lang)
    h = A4[1]
    ops = [b"0.6 G 0.57 w"]
    for s in squares:
        ops.append(f"{s.x * PT:.2f} {(h - s.y - s.side) * PT:.2f} {s.side * PT:.2f} {s.side * PT:.2f} re S".encode())
    for t in texts:
        if t.symbol:
            data, font = bytes([_SYMBOL[t.text]]), b"/F2"
            width = _SYMBOL_WIDTH[data[0]] / 1000 * t.size
        else:
            data, font = t.text.encode("cp1252"), b"/F1"
            width = text_width(t.text, t.size)
        r, g, b = t.colour
        x, y = (t.x - width / 2) * PT, (h - t.y) * PT
        ops.append(b"BT " + font + f" {t.size * PT:.2f} Tf {r:.3f} {g:.3f} {b:.3f} rg {x:.2f} {y:.2f} Td ".encode()
                   + _pdf_string(data) + b" Tj ET")
    return b"\n".join(ops) + b"\n"


def pdf(lang: str) -> bytes:
    content = _content(lang)
    w, h = A4[0] * PT, A4[1] * PT
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2f} {h:.2f}] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>".encode(),
        b"<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
        f"<< /Title ({TITLES[lang]}) >>".encode("cp1252"),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def write_all(directory: pathlib.Path) -> list[pathlib.Path]:
    written = []
    for lang in LANGS:
        for ext, data in (("svg", svg(lang).encode()), ("pdf", pdf(lang))):
            path = directory / f"key-legends-{lang}.{ext}"
            path.write_bytes(data)
            written.append(path)
    return written
