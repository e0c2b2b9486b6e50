"""Session setup typed in at the table."""
from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput

from tablet_app import i18n, present
from tablet_app.ui.theme import BTN_LIGHT, BTN_OK, INK, MUTED, STOP_RED, WHITE
from tablet_app.ui.widgets import BigButton, Panel, StillDropDown, Text, framed


def next_pairs(s: dict[str, Any]) -> tuple[Any, Any]:
    """Who sits here next round in a Mitchell: North-South stay, East-West come from the table
    below (pairs numbered 1..n or n+1..2n per direction). Blank when the tablet cannot know."""
    tables, ns, ew = s.get("tables"), s.get("ns_pair"), s.get("ew_pair")
    if s.get("movement", "mitchell") != "mitchell" or not all(isinstance(x, int) and x > 0 for x in (tables, ns, ew)):
        return "", ""
    base = tables + 1 if ew > tables else 1
    return ns, base + (ew - base - 1) % tables


class SetupScreen(Screen):
    """Session setup typed in at the table (the station's movement fills it when connected)."""

    FIELDS = (("event", "setup_event"), ("section", "setup_section"), ("table", "table"),
              ("round", "round"), ("tables", "setup_tables"), ("boards", "setup_boards"),
              ("ns_pair", "setup_ns"), ("ew_pair", "setup_ew"), ("td_pin", "pin_prompt"))
    NUMBERS = ("table", "round", "tables", "ns_pair", "ew_pair")
    # the alerts choice -> the pairs that do not alert (Session.no_alerts_by)
    ALERTS = {"all": (), "not-NS": ("NS",), "not-EW": ("EW",), "none": ("NS", "EW")}
    POLICIES = ("profile", "record", "prevent")
    # the screens choice -> Session.screens (FSB L114: the organiser requires them)
    SCREENS = {"profile": None, "on": True, "off": False}
    try:
        from shared_rules import profiles as _profiles

        PROFILES: tuple[str, ...] = tuple(_profiles.names())
    except Exception:  # the engine's profiles are missing: the setup is refused with the reason
        PROFILES = ()

    def __init__(self, app: Any, **kw: Any):
        super().__init__(name="setup", **kw)
        self.app = app
        self.message = ""
        root = framed(self, app)
        self.body = BoxLayout(orientation="vertical", padding=(24, 14), spacing=10)
        root.add_widget(self.body)
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
        self.profile = self._choice(grid, None)
        self.policy_id = "profile"
        self.policy = self._choice(grid, "policy")
        self.alerts_id = "all"
        self.alerts = self._choice(grid, "alerts")
        self.screens_id = "profile"
        self.screens = self._choice(grid, "screens")
        self.gate_pin = ""
        # the club's regulations (controller.setup_defaults()); None until the TD chooses: a
        # table never runs under rules nobody picked (the first name in a list is not a choice)
        self.profile_key: str | None = None
        self.profile.bind(text=lambda *_: self._pick_profile())
        self.policy.bind(text=lambda sp, *_: self._pick("policy_id", sp, "policy_", self.POLICIES))
        self.alerts.bind(text=lambda sp, *_: self._pick("alerts_id", sp, "alerts_", self.ALERTS))
        self.screens.bind(text=lambda sp, *_: self._pick("screens_id", sp, "screens_", self.SCREENS))
        form.add_widget(grid)
        self.body.add_widget(form)
        self.error = Text("", size=22, bold=True, color=STOP_RED, size_hint_y=None, height=40)
        self.body.add_widget(self.error)
        self.start = BigButton("", BTN_OK, size_hint_y=None, height=90)
        self.start.bind(on_release=lambda *_: self.submit())
        self.body.add_widget(self.start)

    def _choice(self, grid: Any, label: str | None) -> Spinner:
        """A labelled choice (the label already added when `label` is None); names, not ids."""
        if label is not None:
            self.labels[label] = Text("", size=20, bold=True, color=MUTED)
            grid.add_widget(self.labels[label])
        sp = Spinner(text="", values=[], font_size=20, dropdown_cls=StillDropDown, background_normal="", background_color=BTN_LIGHT, color=INK)
        grid.add_widget(sp)
        return sp

    def prefill(self, session: dict[str, Any] | None, pin: str = "") -> None:
        """The next round's setup from this one; `pin` is the director PIN given to open it, kept
        for the new session when the PIN field is left empty (the field is never filled in)."""
        s = dict(session or {})
        self.gate_pin, self.said = pin, None
        if s:
            s["round"] = s.get("round", 0) + 1
            s["boards"] = ""
            s["ns_pair"], s["ew_pair"] = next_pairs(s)
        else:
            # a first setup: what the club set (the station's movement reply, or this tablet's)
            d = self.app.snap.get("setup_defaults") or {}
            s = {k: d.get(k) for k in ("event", "section", "table")}
            s["profile"] = d.get("profile")
        s["td_pin"] = ""
        for name, _ in self.FIELDS:
            v = s.get(name, "")
            self.inputs[name].text = "" if v is None else str(v)
        self.profile_key = s["profile"] if s.get("profile") in self.PROFILES else None
        self.policy_id = s.get("policy") or "profile"
        off = tuple(s.get("no_alerts_by") or ())
        self.alerts_id = next((k for k, v in self.ALERTS.items() if v == off), "all")
        self.screens_id = next((k for k, v in self.SCREENS.items() if v is s.get("screens")), "profile")
        self.refresh_choices()

    def values(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for name, _ in self.FIELDS:
            text = self.inputs[name].text.strip()
            if name in self.NUMBERS:
                d[name] = int(text) if text.isdigit() else text
            else:
                d[name] = text
        d["profile"] = self.profile_id()
        d["policy"] = None if self.policy_id == "profile" else self.policy_id
        d["no_alerts_by"] = list(self.ALERTS.get(self.alerts_id, ())) if self.may_decline() else []
        d["screens"] = self.SCREENS.get(self.screens_id) if self.may_have_screens() else None
        if not d.get("td_pin") and self.gate_pin:
            d["td_pin"] = self.gate_pin  # the PIN the director opened this screen with
        return d

    # -- choices shown by name, kept by id ---------------------------------------------------
    def _names(self) -> dict[str, str]:
        # marked "(assumed)" where the profile rests on no cited regulation text
        choices = present.profile_choices(self.app.lang)
        return {p: choices.get(p, p) for p in self.PROFILES}

    def profile_id(self) -> str | None:
        return self.profile_key

    def _pick_profile(self) -> None:
        # the name picked, in the language shown now, gives the rule set; a language switch
        # only renames it
        self.profile_key = next((p for p, n in self._names().items() if n == self.profile.text), self.profile_key)
        self.refresh_choices()

    def may_decline(self) -> bool:
        """FSB L115A1: only a rule set with that choice offers it (Session refuses it otherwise)."""
        try:
            from shared_rules import profiles

            return self.profile_key is not None and bool(profiles.load(self.profile_key).alert.pair_may_decline)
        except Exception:
            return False

    def may_have_screens(self) -> bool:
        """FSB L114, 2007/2017 L80B2(e): only a rule set with screen rules offers screens."""
        try:
            from shared_rules import profiles

            return self.profile_key is not None and profiles.load(self.profile_key).screens.available
        except Exception:
            return False

    def _pick(self, attr: str, spinner: Any, prefix: str, ids: Any) -> None:
        lang = self.app.lang
        setattr(self, attr, next((i for i in ids if i18n.tr(prefix + i, lang) == spinner.text), getattr(self, attr)))
        self.refresh_choices()

    def refresh_choices(self) -> None:
        lang = self.app.lang
        names = self._names()
        self.profile.values = list(names.values())
        self.profile.text = (names.get(self.profile_key, self.profile_key) if self.profile_key
                             else i18n.tr("setup_choose_profile", lang))
        self.policy.values = [i18n.tr("policy_" + p, lang) for p in self.POLICIES]
        self.policy.text = i18n.tr("policy_" + self.policy_id, lang)
        self.alerts.values = [i18n.tr("alerts_" + a, lang) for a in self.ALERTS]
        self.alerts.text = i18n.tr("alerts_" + self.alerts_id, lang)
        self.screens.values = [i18n.tr("screens_" + a, lang) for a in self.SCREENS]
        self.screens.text = i18n.tr("screens_" + self.screens_id, lang)
        for ws, shown in (((self.alerts, self.labels["alerts"]), self.may_decline()),
                          ((self.screens, self.labels["screens"]), self.may_have_screens())):
            for w in ws:
                w.opacity = 1 if shown else 0
                w.disabled = not shown

    said: Any = None  # the last refusal, as a function of the language (it follows a switch)

    def submit(self) -> None:
        try:
            self.app.controller.setup(self.values())
            self.said = None
        except ValueError as exc:  # SetupError, Refused: shown, nothing changed
            self.said = lambda lang, exc=exc: i18n.error_text(exc, lang)
        self.error.text = self.said(self.app.lang) if self.said else ""
        self.app.refresh()

    def refresh(self, snap: dict[str, Any], lang: str) -> None:
        self.topbar.refresh(snap, lang)
        for name, key in self.FIELDS:
            self.labels[name].text = i18n.tr(key, lang)
        self.labels["profile"].text = i18n.tr("setup_profile", lang)
        self.labels["policy"].text = i18n.tr("setup_policy", lang)
        self.labels["alerts"].text = i18n.tr("setup_alerts", lang)
        self.labels["screens"].text = i18n.tr("setup_screens", lang)
        self.start.text = i18n.tr("setup_start", lang)
        self.error.text = self.said(lang) if self.said else ""
        self.refresh_choices()


