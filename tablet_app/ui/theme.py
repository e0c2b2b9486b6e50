"""The tablet's look: colours, the font with suit symbols, and the background helpers every widget uses."""
from __future__ import annotations

import pathlib
from typing import Any

FONT_DIR = pathlib.Path("/usr/share/fonts/truetype/dejavu")

# Colours (RGBA 0..1): a calm light theme that reads well under club lighting.
BG = (0.95, 0.96, 0.97, 1)
NAVY = (0.11, 0.22, 0.37, 1)
WHITE = (1, 1, 1, 1)
INK = (0.10, 0.12, 0.16, 1)
MUTED = (0.40, 0.45, 0.52, 1)
RED_SUIT = (0.80, 0.08, 0.12, 1)
VUL_RED = (0.78, 0.16, 0.18, 1)
NONVUL = (0.20, 0.55, 0.33, 1)
TURN = (1.0, 0.80, 0.25, 1)
ALERT_BG = (0.56, 0.80, 1.0, 1)
STOP_RED = (0.85, 0.15, 0.15, 1)
BTN = (0.16, 0.36, 0.62, 1)
BTN_WARN = (0.80, 0.30, 0.10, 1)
BTN_OK = (0.16, 0.55, 0.30, 1)
BTN_LIGHT = (0.86, 0.89, 0.93, 1)



from kivy.core.text import LabelBase  # noqa: E402
from kivy.graphics import Color, Rectangle, RoundedRectangle  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

if (FONT_DIR / "DejaVuSans.ttf").exists():
    # The default font has no suit symbols; DejaVu Sans has all four.
    LabelBase.register(
        name="Roboto",
        fn_regular=str(FONT_DIR / "DejaVuSans.ttf"),
        fn_bold=str(FONT_DIR / "DejaVuSans-Bold.ttf"),
    )


def _bg(widget: Widget, color: tuple[float, ...], radius: float = 0) -> None:
    with widget.canvas.before:
        c = Color(*color)
        r = RoundedRectangle(pos=widget.pos, size=widget.size, radius=[radius]) if radius else Rectangle(
            pos=widget.pos, size=widget.size)
    widget._bg_color = c

    def sync(*_: Any) -> None:
        r.pos, r.size = widget.pos, widget.size

    widget.bind(pos=sync, size=sync)


def set_bg(widget: Widget, color: tuple[float, ...]) -> None:
    widget._bg_color.rgba = color
