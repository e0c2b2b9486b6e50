"""Session setup typed in at the table."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput

from tablet_app import i18n
from tablet_app.ui.theme import BG, BTN_LIGHT, BTN_OK, INK, MUTED, STOP_RED, WHITE, _bg
from tablet_app.ui.widgets import BigButton, Panel, Text, TopBar


class SetupScreen(Screen):
    """Session setup typed in at the table (the station's movement fills it when connected)."""

    FIELDS = (("event", "setup_event"), ("section", "setup_section"), ("table", "table"),
              ("round", "round"), ("tables", "setup_tables"), ("boards", "setup_boards"),
              ("ns_pair", "setup_ns"), ("ew_pair", "setup_ew"), ("td_pin", "pin_prompt"))
    NUMBERS = ("table", "round", "tables", "ns_pair", "ew_pair")
    # the alerts choice -> the pairs that do not alert (Session.no_alerts_by)
    ALERTS = {"all": (), "not-NS": ("NS",), "not-EW": ("EW",), "none": ("NS", "EW")}

    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="setup", **kw)
        self.app = app
        self.message = ""
        root = BoxLayout(orientation="vertical")
        _bg(root, BG)
        self.topbar = TopBar(app)
        root.add_widget(self.topbar)
        self.body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=10)
        root.add_widget(self.body)
        self.add_widget(root)
        self.inputs: dict[str, TextInput] = {}
        self.labels: dict[str, Label] = {}
        form = Panel(WHITE, 14, orientation="vertical", padding=(20, 12), spacing=6)
        grid = GridLayout(cols=4, spacing=(14, 8), row_default_height=54, row_force_default=True)
        for name, _key in self.FIELDS:
            lbl = Text("", size=20, bold=True, color=MUTED)
            self.labels[name] = lbl
            ti = TextInput(multiline=False, font_size=24, password=(name == "td_pin"),
                           input_filter="int" if name in self.NUMBERS else None,
                           padding=(10, 12), write_tab=False)
            self.inputs[name] = ti
            grid.add_widget(lbl)
            grid.add_widget(ti)
        self.labels["profile"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["profile"])
        try:
            from shared_rules import profiles

            names = profiles.names()
        except Exception:  # the engine's profiles are missing: only the default is offered
            names = ["fsb-2007"]
        self.profile = Spinner(text=names[0] if names else "", values=names, font_size=22, background_normal="",
                               background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.profile)
        self.labels["policy"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["policy"])
        self.policy = Spinner(text="profile", values=("profile", "record", "prevent"), font_size=22,
                              background_normal="", background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.policy)
        # FSB L115A1-A2: a pair may ask its opponents at the table not to alert
        self.labels["alerts"] = Text("", size=20, bold=True, color=MUTED)
        grid.add_widget(self.labels["alerts"])
        self.alerts = Spinner(text="all", values=tuple(self.ALERTS), font_size=22, background_normal="",
                              background_color=BTN_LIGHT, color=INK)
        grid.add_widget(self.alerts)
        form.add_widget(grid)
        self.body.add_widget(form)
        self.error = Text("", size=22, bold=True, color=STOP_RED, size_hint_y=None, height=40)
        self.body.add_widget(self.error)
        self.start = BigButton("", BTN_OK, size_hint_y=None, height=90)
        self.start.bind(on_release=lambda *_: self.submit())
        self.body.add_widget(self.start)

    def prefill(self, session: dict[str, Any] | None) -> None:
        s = dict(session or {})
        if s:
            s["round"] = s.get("round", 0) + 1
            s["boards"] = ""
            s["ns_pair"] = s["ew_pair"] = ""
        for name, _ in self.FIELDS:
            v = s.get(name, "")
            self.inputs[name].text = "" if v is None else str(v)
        if s.get("profile"):
            self.profile.text = s["profile"]
        self.policy.text = s.get("policy") or "profile"
        off = tuple(s.get("no_alerts_by") or ())
        self.alerts.text = next((k for k, v in self.ALERTS.items() if v == off), "all")

    def values(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name, _ in self.FIELDS:
            text = self.inputs[name].text.strip()
            if name in self.NUMBERS:
                d[name] = int(text) if text.isdigit() else text
            else:
                d[name] = text
        d["profile"] = self.profile.text
        d["policy"] = None if self.policy.text == "profile" else self.policy.text
        d["no_alerts_by"] = list(self.ALERTS.get(self.alerts.text, ()))
        return d

    def submit(self) -> None:
        try:
            self.app.controller.setup(self.values())
            self.error.text = ""
        except ValueError as exc:  # SetupError, Refused: shown, nothing changed
            self.error.text = str(exc)
        self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        for name, key in self.FIELDS:
            self.labels[name].text = i18n.tr(key, lang)
        self.labels["profile"].text = i18n.tr("setup_profile", lang)
        self.labels["policy"].text = i18n.tr("setup_policy", lang)
        self.labels["alerts"].text = i18n.tr("setup_alerts", lang)
        self.start.text = i18n.tr("setup_start", lang)


