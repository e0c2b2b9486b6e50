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


_setup_kivy()
