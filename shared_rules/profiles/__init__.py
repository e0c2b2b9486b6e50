"""Regulation profiles: one TOML file per jurisdiction, loaded into frozen data.

Everything that differs between editions and jurisdictions (the Laws edition, the stop procedure,
who alerts and when alerting stops, screens, the irregularity policy) lives in the files next to
this module, not in code. `load(name)` validates a file completely and raises `ProfileError` with a
message naming the file and the field; nothing half-loaded ever reaches the engine.
"""
from __future__ import annotations

import functools
import pathlib
import re
import tomllib
from dataclasses import dataclass, replace
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
EDITIONS = (2007, 2017)
POLICIES = ("record", "prevent")
STOP_TRIGGERS = ("opening_two_level", "jump")
ENFORCEMENTS = ("lock", "warn", "none")
ALERTERS = ("partner", "self")
CALL_MADE = ("taken", "confirmed")  # FSB L112C: taken from the box with visible intent; or confirmed
UNPASSED_CALL = ("cancel", "laws")
UNPASSED_INSUFFICIENT = ("correct", "laws")
PARTNER_ALERT = ("screenmate_calls", "tray_passes")
# When the stop wait of a player across the screen from the stop begins: when the tray brings him
# the call, or at the call itself (docs/laws/choices.md #38).
ACROSS_SCREEN = ("tray", "call")
# The rule groups a regulation text gives: a profile applies call_made always, the others when
# enabled; each applied group rests on a citation (`cite`) or is assumed.
RULE_GROUPS = ("call_made", "stop", "alert", "screens")


class ProfileError(ValueError):
    """An unknown profile name or a malformed profile file."""


@dataclass(frozen=True)
class StopRules:
    """The pause after a skip bid (FSB L116, 2017 L73A1: the regulating authority's mandatory
    pauses). `triggers`: the bids that are skip bids. `card`: the regulation has a Stop card (or
    spoken "stop") shown before them; a trigger made without it is flagged (`stop_missing`), and a
    call made with it obliges the next player's pause. `pause_without_card`: every trigger obliges
    that pause, the card shown or not (EBU: "as though the Stop card had been used"; ACBL, which
    has no card). `across_screen`: behind screens, when the pause of a player on the other side of
    the screen from the stop begins: "tray" (when the tray brings him the call: he cannot pause
    after a stop he has not seen) or "call" (at the call, as without screens); a player on the
    caller's own side sees the stop at once, so his pause begins at the call either way."""

    enabled: bool
    triggers: tuple[str, ...]
    wait_s: float
    tolerance_s: float
    long_thought_s: float
    enforcement: str
    law: str
    card: bool = True
    pause_without_card: bool = False
    across_screen: str = "call"


@dataclass(frozen=True)
class AlertRules:
    enabled: bool
    by: tuple[str, ...]
    cutoff_level: int | None
    cutoff_exempts_opening: bool
    law: str
    # FSB L115A1-A2: a pair may ask that its opponents at the table do not alert; the law that
    # allows it ("" where the regulation has no such choice).
    pair_may_decline: str


@dataclass(frozen=True)
class ScreenRules:
    """Play with screens. `available`: the regulation has screen rules, so an organiser may
    require screens (FSB L114: "när arrangören så kräver"; 2007/2017 L80B2(e)). `enabled`: screens
    are on at the table; in a profile file, on at every table unless the organiser says otherwise
    (`with_screens` turns them on or off for one table)."""

    enabled: bool
    tray_delay_s: float
    screenmates: tuple[tuple[str, str], ...]
    # The regulation for irregularities that did not cross the screen (2007 L80F, 2017 L80B2(e)),
    # and what a call out of rotation caught before the tray passed gets: "cancel" or "laws".
    law: str = ""
    unpassed_call: str = "laws"
    available: bool = False
    # An insufficient bid caught before the tray passed: "correct" (the offender corrects it
    # without rectification; the other side never learns of it) or "laws" (Law 27).
    unpassed_insufficient: str = "laws"
    # Until when the partner's alert of a call the tray brought is in time: "screenmate_calls"
    # (before his screenmate calls over it) or "tray_passes" (while the tray is still on his
    # side); docs/laws/choices.md #35.
    partner_alert: str = "screenmate_calls"


@dataclass(frozen=True)
class AdjustedRules:
    """Who may weight an assigned adjusted score (a score made of several outcomes, each with its
    likelihood). 2017 L12C1(c): the director may. 2007: the regulating authority says who; the
    Swedish edition's L12C1(c) gives it to an appeals committee and the Laws Commission only.
    `law`: the text that says so."""

    weighting_by_td: bool
    law: str


@dataclass(frozen=True)
class Citation:
    """The regulation text a profile's rules rest on: which rule groups (RULE_GROUPS) it gives,
    the regulation, its edition, the section, and the text quoted."""

    covers: tuple[str, ...]
    regulation: str
    edition: str
    section: str
    quote: str


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    edition: int
    policy: str
    stop: StopRules
    alert: AlertRules
    screens: ScreenRules
    simultaneous_window_s: float
    sources: tuple[str, ...]
    adjusted: AdjustedRules  # who may weight an assigned adjusted score (Law 12C1)
    call_made: str = "confirmed"  # when a box call counts as made (FSB L112C: "taken")
    # L33: where `simultaneous_window_s` comes from (a regulation, or the engine's reading)
    simultaneous_source: str = ""
    cites: tuple[Citation, ...] = ()
    # What no cited regulation text gives: the rule groups the profile applies without a citation,
    # and the values it lists itself. Not empty: the profile is "assumed" wherever a TD chooses it.
    assumed: tuple[str, ...] = ()
    # The VP scale a team match is scored on unless the event names another (2007 L78D / 2017
    # §78D; `shared_rules.scoring.vp_scales`), and why that one (the regulation, or that none
    # printing a scale was found: docs/laws/choices.md #41).
    vp_scale: str = "wbf"
    vp_scale_source: str = ""


def with_screens(profile: Profile, on: bool | None) -> Profile:
    """The profile as one table plays it: screens on or off as the organiser set them for the
    event, section or table (`on`; None keeps the profile's own setting). Screens can be turned on
    only where the regulation has screen rules (`screens.available`): FSB L114, "Spelare är
    skyldiga att använda skärmar, när arrangören så kräver"; 2007/2017 L80B2(e)."""
    if on is not None and not isinstance(on, bool):
        raise ProfileError(f"screens must be true or false (got {on!r})")
    if on is None or on is profile.screens.enabled:
        return profile
    if on and not profile.screens.available:
        raise ProfileError(f"profile {profile.name} has no screen rules: screens cannot be turned on under it "
                           f"(profiles with screen rules: {', '.join(n for n in names() if load(n).screens.available)})")
    return _with_screens(profile, on)


@functools.lru_cache(maxsize=32)
def _with_screens(profile: Profile, on: bool) -> Profile:
    # one derived profile per (profile, setting): a tablet opens a Table per board. Screens now
    # applied rest on a citation or are assumed, as the file's own groups (`parse`).
    cited = {g for c in profile.cites for g in c.covers}
    assumed = set(profile.assumed) - {"screens"}
    if on and "screens" not in cited:
        assumed.add("screens")
    return replace(profile, screens=replace(profile.screens, enabled=on), assumed=tuple(sorted(assumed)))


def names() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.toml"))


def listing() -> str:
    """The profiles by name for a tool's --help, each marked "(assumed)" where values in it rest on
    no cited regulation text (`Profile.assumed`)."""
    return ", ".join(n + (" (assumed)" if load(n).assumed else "") for n in names())


def load(name: str) -> Profile:
    """The named profile. Files ship with the package and profiles are frozen, so each is read and
    validated once per process (a tablet opens a Table per board; replaying logs opens thousands)."""
    if not isinstance(name, str):
        raise ProfileError(f"profile name must be one of {', '.join(names())}, not {name!r}")
    return _load_cached(name)


@functools.lru_cache(maxsize=32)
def _load_cached(name: str) -> Profile:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ProfileError(f"profile name must be one of {', '.join(names())}, not {name!r}")
    path = HERE / f"{name}.toml"
    if not path.is_file():
        raise ProfileError(f"unknown profile {name!r}: known profiles are {', '.join(names())}")
    return load_file(path)


def load_file(path: pathlib.Path) -> Profile:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ProfileError(f"profile file {path.name}: cannot be read as TOML: {exc}") from exc
    return parse(data, where=path.name)


class _Reader:
    def __init__(self, data: Any, where: str, section: str = "") -> None:
        if not isinstance(data, dict):
            raise ProfileError(f"profile {where}: [{section}] must be a table")
        self.data, self.where, self.section = data, where, section
        self.used: set[str] = set()

    def _fail(self, key: str, msg: str) -> ProfileError:
        dotted = f"{self.section}.{key}" if self.section else key
        return ProfileError(f"profile {self.where}: {dotted} {msg}")

    def get(self, key: str, kind: type | tuple[type, ...]) -> Any:
        self.used.add(key)
        if key not in self.data:
            raise self._fail(key, "is missing")
        value = self.data[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self._fail(key, f"must not be true/false (got {value!r})")
        if not isinstance(value, kind):
            raise self._fail(key, f"has the wrong type ({type(value).__name__})")
        return value

    def number(self, key: str, low: float = 0.0) -> float:
        value = float(self.get(key, (int, float)))
        if not value >= low or value > 3600:
            raise self._fail(key, f"must be a number from {low} to 3600 (got {value!r})")
        return value

    def choice(self, key: str, allowed: tuple[Any, ...]) -> Any:
        value = self.get(key, (str, int))
        if value not in allowed:
            raise self._fail(key, f"must be one of {', '.join(map(str, allowed))} (got {value!r})")
        return value

    def choices(self, key: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
        values = self.get(key, list)
        if any(v not in allowed for v in values) or len(set(values)) != len(values):
            raise self._fail(key, f"must list distinct values from {', '.join(allowed)} (got {values!r})")
        return tuple(values)

    def sub(self, key: str) -> _Reader:
        self.used.add(key)
        if key not in self.data:
            raise self._fail(key, "is missing")
        return _Reader(self.data[key], self.where, key)

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise self._fail(extra[0], "is not a known field")


def parse(data: Any, where: str = "<profile>") -> Profile:
    top = _Reader(data, where)
    name = top.get("name", str)
    title = top.get("title", str)
    edition = top.choice("edition", EDITIONS)
    policy = top.choice("policy", POLICIES)
    window = top.number("simultaneous_window_s")
    window_source = top.get("simultaneous_source", str)
    if not window_source.strip():
        raise ProfileError(f"profile {where}: simultaneous_source must say where the L33 window comes from")
    call_made = top.choice("call_made", CALL_MADE)
    sources = tuple(top.get("sources", list))
    if not all(isinstance(s, str) for s in sources):
        raise ProfileError(f"profile {where}: sources must be a list of strings")
    vp_scale, vp_scale_source = _vp_scale(top, where)

    s = top.sub("stop")
    stop = StopRules(
        enabled=s.get("enabled", bool),
        triggers=s.choices("triggers", STOP_TRIGGERS),
        wait_s=s.number("wait_s"),
        tolerance_s=s.number("tolerance_s"),
        long_thought_s=s.number("long_thought_s"),
        enforcement=s.choice("enforcement", ENFORCEMENTS),
        law=s.get("law", str),
        card=s.get("card", bool),
        pause_without_card=s.get("pause_without_card", bool),
        # optional: a profile without screen rules has no one across a screen
        across_screen=s.choice("across_screen", ACROSS_SCREEN) if "across_screen" in s.data else "call",
    )
    s.done()
    if stop.tolerance_s > stop.wait_s:
        raise ProfileError(f"profile {where}: stop.tolerance_s must not exceed stop.wait_s")
    if stop.enabled and not stop.card and not stop.pause_without_card:
        raise ProfileError(f"profile {where}: stop.enabled with neither a card nor pause_without_card obliges "
                           "no pause: set enabled = false")

    a = top.sub("alert")
    cutoff = a.get("cutoff_level", int)
    if not 0 <= cutoff <= 7:
        raise ProfileError(f"profile {where}: alert.cutoff_level must be 0 (none) or a level 1..7")
    alert = AlertRules(
        enabled=a.get("enabled", bool),
        by=a.choices("by", ALERTERS),
        cutoff_level=cutoff or None,
        cutoff_exempts_opening=a.get("cutoff_exempts_opening", bool),
        law=a.get("law", str),
        pair_may_decline=a.get("pair_may_decline", str),
    )
    a.done()
    if alert.enabled and not alert.by:
        raise ProfileError(f"profile {where}: alert.by must name who alerts when alerting is enabled")

    sc = top.sub("screens")
    mates = sc.get("screenmates", list)
    flat = [seat for pair in mates if isinstance(pair, list) and len(pair) == 2 for seat in pair]
    if len(mates) != 2 or sorted(flat) != ["E", "N", "S", "W"]:
        raise ProfileError(f"profile {where}: screens.screenmates must be two pairs covering N, E, S, W")
    enabled = sc.get("enabled", bool)
    # `available` may be left out by a profile whose screens are on: on means available
    available = sc.get("available", bool) if "available" in sc.data else enabled
    if enabled and not available:
        raise ProfileError(f"profile {where}: screens.enabled needs screens.available (the regulation's screen rules)")
    screens = ScreenRules(
        enabled=enabled,
        tray_delay_s=sc.number("tray_delay_s"),
        screenmates=tuple((str(p[0]), str(p[1])) for p in mates),
        law=sc.get("law", str),
        unpassed_call=sc.choice("unpassed_call", UNPASSED_CALL),
        available=available,
        unpassed_insufficient=sc.choice("unpassed_insufficient", UNPASSED_INSUFFICIENT)
        if "unpassed_insufficient" in sc.data else "laws",
        partner_alert=sc.choice("partner_alert", PARTNER_ALERT) if "partner_alert" in sc.data else "screenmate_calls",
    )
    sc.done()
    ad = top.sub("adjusted")
    adjusted = AdjustedRules(weighting_by_td=ad.get("weighting_by_td", bool), law=ad.get("law", str))
    ad.done()
    if not adjusted.law.strip():
        raise ProfileError(f"profile {where}: adjusted.law must name the Law that says who may weight a score")
    cites = _cites(top.get("cite", list) if "cite" in top.data else [], where)
    listed = top.get("assumed", list)
    known = _fields(stop, alert, screens)
    for value in listed:
        if value not in known:
            raise ProfileError(f"profile {where}: assumed lists {value!r}, which is no field of a profile "
                               f"(e.g. call_made, stop.wait_s, alert.by)")
    applied = ("call_made",) + tuple(g for g, rules in (("stop", stop), ("alert", alert), ("screens", screens))
                                     if rules.enabled)
    cited = {g for c in cites for g in c.covers}
    assumed = tuple(sorted({g for g in applied if g not in cited} | set(listed)))
    top.done()
    return Profile(name, title, int(edition), str(policy), stop, alert, screens, window, sources, adjusted,
                   str(call_made), window_source, cites, assumed, vp_scale, vp_scale_source)


def _vp_scale(top: _Reader, where: str) -> tuple[str, str]:
    """`vp_scale` (optional, default "wbf"): a name from `vp_scales.names()`, with
    `vp_scale_source` saying where the choice comes from."""
    from shared_rules.scoring import vp_scales

    if "vp_scale" not in top.data:
        return "wbf", ""
    name = top.choice("vp_scale", vp_scales.names())
    source = top.get("vp_scale_source", str)
    if not source.strip():
        raise ProfileError(f"profile {where}: vp_scale_source must say where the VP scale comes from")
    return str(name), source


def _cites(items: list[Any], where: str) -> tuple[Citation, ...]:
    """[[cite]] tables: each names the regulation, its edition and section, quotes it, and says
    which rule groups it gives; an empty field is refused (nothing rests on an unnamed text)."""
    out = []
    for i, item in enumerate(items):
        r = _Reader(item, where, f"cite[{i}]")
        texts = {}
        for key in ("regulation", "edition", "section", "quote"):
            texts[key] = r.get(key, str).strip()
            if not texts[key]:
                raise r._fail(key, "must not be empty")
        covers = r.choices("covers", RULE_GROUPS)
        if not covers:
            raise r._fail("covers", f"must name what the text gives ({', '.join(RULE_GROUPS)})")
        r.done()
        out.append(Citation(covers, texts["regulation"], texts["edition"], texts["section"], texts["quote"]))
    return tuple(out)


def _fields(*groups: Any) -> frozenset[str]:
    """Every field a profile may list as assumed: call_made, the groups, and group.field."""
    names = {"call_made", *RULE_GROUPS}
    for prefix, rules in zip(("stop", "alert", "screens"), groups, strict=True):
        names.update(f"{prefix}.{f}" for f in rules.__dataclass_fields__)
    return frozenset(names)
