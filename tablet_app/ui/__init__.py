"""The Kivy screens of the table tablet, one per module; `tablet_app.ui.app.TabletApp` ties them
together. Importing the package sets Kivy's window options, so it happens before any module of the
package imports Kivy (Kivy reads them when the window is created)."""
from __future__ import annotations

import os


def _setup_kivy(width: int = 1280, height: int = 800) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    Config.set("kivy", "exit_on_escape", "0")
    # No multisampling: on a software renderer (a tablet without a GPU driver, Xvfb) MSAA x2 made
    # each frame 2.8 times as costly to rasterise (78 -> 28 ms of CPU under the bench), time taken
    # from the link; it only smooths the rounded corners of buttons, text has its own antialiasing.
    Config.set("graphics", "multisamples", "0")
    # A trigger from another thread (the link waiter) wakes the main loop at once instead of at
    # the next frame: box events are journalled and answered without waiting for a redraw.
    Config.set("kivy", "kivy_clock", os.environ.get("TABLET_KIVY_CLOCK", "interrupt"))


_setup_kivy()
