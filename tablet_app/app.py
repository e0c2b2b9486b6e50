"""The table tablet's Kivy app. Widgets only render controller state and forward touches.

    python -m tablet_app.app --db table.db [--lang sv] [--setup session.json] [--ports auto|/dev/..,/dev/..]
    python -m tablet_app.app --db table.db --station http://scoring-pc:8080 --table 3 --table-key KEY

Screens: auction (readable across the table), director console (PIN-protected), tempo, result
entry, round end. Every screen redraws from `controller.snapshot()` and `tablet_app.present`;
every button calls one controller method.
"""
from __future__ import annotations

import pathlib
import sys
from typing import Any

from tablet_app import i18n
from tablet_app.controller import Controller
from tablet_app.ui.app import TabletApp

__all__ = ["TabletApp", "main"]


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="build/tablet.db", help="journal file (created if missing)")
    ap.add_argument("--lang", choices=i18n.LANGS, default=None,
                    help="the screens' language (default: the club's, from the station's --language, else en)")
    ap.add_argument("--setup", help="session setup JSON file (used when the journal has none)")
    ap.add_argument("--movement", help="the station's movement JSON file; with --table and --round")
    ap.add_argument("--table", help="this table: its number (in --movement, or section A at --station), "
                                    "SECTION/N, or the station's full id EVENT/SECTION/N")
    ap.add_argument("--round", type=int, help="the round to start (default: --movement 1, --station the "
                                              "round the station says this table is on)")
    ap.add_argument("--pin", help="director PIN for a session from --movement or --station")
    from shared_rules import profiles

    ap.add_argument("--profile", help="regulation profile for a session from --movement or --station "
                                      f"({profiles.listing()}; default fsb-2007). (assumed): values in it rest "
                                      "on no cited regulation text; confirm them with the federation")
    ap.add_argument("--policy", choices=("record", "prevent"),
                    help="irregularity policy for a session from --movement or --station (default: the profile's)")
    ap.add_argument("--ports", default="auto",
                    help="the boxes' serial ports: 'auto' (default: every /dev/ttyACM* and /dev/ttyUSB*), "
                         "or a list of ports (/dev/ttyX,/dev/ttyY): each box is found by the seat it reports; "
                         "or 'none'; N=/dev/ttyX,E=... still gives the seats by hand")
    ap.add_argument("--station", help="results station URL: start the outbox deliverer; with --table and "
                                      "--table-key, and no session yet, take the setup from it")
    ap.add_argument("--table-key", default="", help="this tablet's key at the station")
    ap.add_argument("--director-grace", type=int, metavar="SECONDS",
                    help="after the director leaves the console, how long it reopens without the PIN "
                         "(0-120; default: the station's, else 0); kept as the club's setting")
    ap.add_argument("--flat", action="store_true",
                    help="start with the flat-table layout (a strip turned to each seat; a button switches)")
    ap.add_argument("--exit-when-ready", action="store_true",
                    help="print 'ready' once the auction screen is drawn, then quit (bench)")
    args = ap.parse_args(argv)
    pathlib.Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    from tablet_app.journal import JournalDamaged, JournalError
    from tablet_app.session import SetupError

    # what the TD chooses for a session taken from a movement (the movement has pairs and boards)
    extra = {k: v for k, v in (("td_pin", args.pin), ("profile", args.profile), ("policy", args.policy)) if v}
    ctl: Controller | None = None
    damaged: JournalDamaged | None = None
    try:
        try:
            ctl = Controller(args.db)
        except JournalDamaged as exc:
            # Said on the screen, with a way on (the damaged screen's Recover), not an exit with
            # nothing shown; the line here is for whoever started the app from a terminal.
            damaged = exc
            print(f"tablet: {exc}", file=sys.__stderr__)
        if ctl is not None:
            remember_station(ctl, args)
        if ctl is not None and args.director_grace is not None:
            ctl.set_club_defaults(director_grace_s=args.director_grace)
        if ctl is not None and ctl.session is None and args.setup:
            ctl.setup(json.loads(pathlib.Path(args.setup).read_text()))
        elif ctl is not None and ctl.session is None and args.movement:
            from tablet_app.session import from_station

            if args.table is None or not args.table.isdigit():
                raise SetupError("--movement needs --table N (the table's number)")
            movement = json.loads(pathlib.Path(args.movement).read_text())
            ctl.setup(from_station(movement, int(args.table), args.round or 1, **extra))
        elif ctl is not None and ctl.session is None and args.station and args.table is not None:
            from tablet_app.station_client import StationError, setup_from_station

            try:
                setup_from_station(ctl, args.station, args.table, args.table_key, args.round, **extra)
            except (StationError, SetupError) as exc:
                # The table can still play: the TD types the setup in on the setup screen.
                print(f"tablet: no setup from the station ({exc}); type it in", file=sys.__stderr__)
    except (JournalError, SetupError, OSError, json.JSONDecodeError) as exc:
        print(f"tablet: {exc}", file=sys.__stderr__)  # Kivy has taken over sys.stderr
        return 2
    # The club's language (the station's movement reply, kept by the tablet) unless one is given;
    # the TD may still change it on the setup screen.
    args.lang = args.lang or (ctl.club.get("language") if ctl is not None else None) or "en"
    runners: list[Any] = []
    deliverers: list[Any] = []
    app: TabletApp | None = None

    def start_deliverer(c: Controller) -> Any:
        from tablet_app.outbox import Deliverer
        from tablet_app.station_client import player_lookup, table_of, traveller_hook

        tid = table_of(c.session).format()
        if c.player_lookup is None:  # a tablet restarted mid-round: its players' names from the same station
            c.player_lookup = player_lookup(args.station, tid, args.table_key, session=c.session.station_session)
        # After the station has stored this table's result, the board's traveller (Law 16: not
        # before), when the club's settings show results.
        # watch_storage: a full disk is told to the director page (nothing can be queued then).
        deliverers.append(Deliverer(args.db, args.station, tid, args.table_key,
                                    on_delivered=traveller_hook(c, args.station, tid, args.table_key))
                          .watch_storage(c).start())
        return deliverers[-1]

    def parts(c: Controller) -> tuple[Any, Any]:
        """The link to the boxes and the deliverer to the station, for the table's controller."""
        runner = None
        ports, trouble = box_ports(args.ports, args.lang)
        if ports:
            from tablet_app.runner import TableRunner

            runner = TableRunner(c, ports)
            runner.box_trouble.update(trouble)  # shown on the director console, in its language
            runners.append(runner)
        if args.station and args.table_key:
            from tablet_app.station_client import pin_checker

            # the club's PIN, when the station keeps it, is checked there (docs/station.md)
            c.pin_check = pin_checker(args.station, args.table_key)
        deliverer = start_deliverer(c) if args.station and c.session is not None else None
        if args.station and deliverer is None:
            # Setup typed in at the table: results go to the station from the first board on.
            def on_setup() -> None:
                if app is not None and app.deliverer is None and c.session is not None:
                    app.deliverer = start_deliverer(c)

            c.listeners.append(on_setup)
        if args.station:
            def next_setup() -> None:
                from tablet_app.station_client import next_round_from_station

                next_round_from_station(c, args.station, args.table_key)

            def next_preview() -> Any:
                from tablet_app.station_client import next_round

                return next_round(c, args.station, args.table_key)

            if app is not None:
                app.next_setup = next_setup
                app.next_preview = next_preview
            pending_next.append((next_setup, next_preview))
        return runner, deliverer

    pending_next: list[Any] = []

    def recover() -> tuple[Controller, Any, Any]:
        c = Controller.recover(args.db)
        runner, deliverer = parts(c)
        return c, runner, deliverer

    def ready(app: TabletApp) -> None:
        print("ready", flush=True)
        app.stop()

    runner, deliverer = parts(ctl) if ctl is not None else (None, None)
    app = TabletApp(ctl, runner, args.lang, on_ready=ready if args.exit_when_ready else None,
                    deliverer=deliverer, flat=args.flat, damaged=damaged, recover=recover)
    if pending_next:
        app.next_setup, app.next_preview = pending_next[-1]
    try:
        app.run()
    finally:
        for d in deliverers:
            d.stop()
        for r in runners:
            r.close()
    return 0


def remember_station(ctl: Controller, args: Any) -> None:
    """The station's address, the table and its key are typed once (as the station printed the
    address): given, the tablet keeps them; not given, it takes the ones it kept."""
    given = {"station": args.station, "table": args.table, "table_key": args.table_key}
    if args.station:
        ctl.set_club_defaults(**{k: v for k, v in given.items() if v})
        return
    kept = ctl.club
    if kept.get("station"):
        args.station = kept["station"]
        args.table = args.table or kept.get("table")
        args.table_key = args.table_key or kept.get("table_key", "")


def box_ports(spec: str, lang: str) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Seat -> serial port from `--ports`: found by the seat each box reports (protocol/SPEC.md
    section 2) unless the seats are given by hand; and per seat what is wrong (`TableRunner.
    box_trouble`: "clash", the ports of two boxes on one seat; "missing"). The problems are also
    printed in the players' language; the table runs with the seats found once each."""
    if spec == "none":
        return {}, {}
    if "=" in spec:
        return dict(p.split("=", 1) for p in spec.split(",")), {}
    from tablet_app.link.discover import candidate_ports, describe, find_boxes

    paths = candidate_ports() if spec == "auto" else [p for p in spec.split(",") if p]
    if not paths:
        return {}, {}
    found = find_boxes(paths)
    for line in describe(found, lang):
        print(f"tablet: {line}", file=sys.__stderr__)
    trouble: dict[str, dict[str, Any]] = {s: {"clash": paths} for s, paths in found.clashes().items()}
    trouble.update({s: {"missing": True} for s in found.missing()})
    return found.ports(), trouble


if __name__ == "__main__":
    raise SystemExit(main())
