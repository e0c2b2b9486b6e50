"""Whether every text on a screen fits its widget: measured with Kivy's own text renderer.

A Kivy label whose `text_size` is its size renders only what fits and drops the rest, so its
texture says nothing about what was cut. Each label's text is rendered again here with the same
font, size and markup, bounded only in width as the label wraps it (or not at all when it does not
wrap), and the size it needs is compared with the label's size.
"""
from __future__ import annotations

from typing import Any

SLACK = 1.5  # pixels of rounding


def needed(label: Any) -> tuple[float, float]:
    """The size `label`'s text needs, wrapped at the label's width when the label wraps."""
    core = label._label  # the label's own renderer: same font, size, markup and padding
    cls = type(core)
    options = dict(core.options)
    width = label.text_size[0]
    options["text_size"] = (width, None) if width else (None, None)
    options["shorten"] = False  # the whole text, not what an ellipsis leaves of it
    probe = cls(**options)
    probe.text = label.text
    probe.refresh()
    return tuple(probe.texture.size) if probe.texture is not None else (0, 0)


def visible_labels(root: Any) -> list[Any]:
    from kivy.uix.label import Label

    out = []
    for w in root.walk(restrict=True):
        if isinstance(w, Label) and w.text.strip() and w.opacity > 0 and w.width > 1 and w.height > 1:
            parent, shown = w.parent, True
            while parent is not None and parent is not root:
                if getattr(parent, "opacity", 1) == 0:
                    shown = False
                parent = parent.parent
            if shown:
                out.append(w)
    return out


def clipped(root: Any) -> list[dict[str, Any]]:
    """Every visible label on `root` whose text does not fit it: text, needed and given size.
    A label that shortens its text with an ellipsis is measured by its whole text too: no label
    of the app is cut by design."""
    out = []
    for w in visible_labels(root):
        need_w, need_h = needed(w)
        if need_w > w.width + SLACK or need_h > w.height + SLACK:
            out.append({"text": w.text, "needed": [round(need_w), round(need_h)],
                        "size": [round(w.width), round(w.height)]})
    return out
