"""`python -m station --db PATH --port N`: run the results station.

With no options it works for a club: SQLite file station.db in the current directory, port
8080 on every interface, today's event `club-YYYY-MM-DD`. Tables become known either from the
scoring program (Data Connector InitializeEvent) or with `--tables A:1-12`; their keys are
printed, and shown on the director page.

`python -m station cert --export station.cer`: the station's TLS certificate for the trusted
roots of a computer whose scoring program verifies it instead of pinning (docs/station.md).

`python -m station bws-replaced write|leave`: the TD's answer when the scoring program replaced
the `.bws` by a file the earlier results do not fit (docs/bws.md).
"""
from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import re
import signal
import sys
import threading
from typing import Any

from . import lan, lan_qr, tls
from .http_server import Limits
from .server import Station, StationConfig, make_server
from .store import Store, StoreError

# The languages the table tablet speaks (its i18n): the station sends the club's choice with each
# table's movement, and does not import the tablet to check it.
LANGUAGES = ("en", "sv", "da")


def parse_tables(spec: str) -> tuple[str, list[int]]:
    """`A:1-12` or `B:1,3,5-7` -> ("A", [1..12])."""
    m = re.match(r"^([A-Z]{1,3}):([0-9,\- ]+)$", spec)
    if not m:
        raise argparse.ArgumentTypeError(f"{spec!r}: expected SECTION:TABLES, e.g. A:1-12")
    tables: list[int] = []
    for part in m.group(2).replace(" ", "").split(","):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise argparse.ArgumentTypeError(f"{spec!r}: bad table range {part!r}")
        tables.extend(range(int(lo), int(hi or lo) + 1))
    return m.group(1), tables


def screens_spec(spec: str) -> str:
    """A --screens value: all, none, a section or a section's tables (station/screens.py)."""
    from station import screens

    if spec == "none":
        return spec
    try:
        return screens.parse(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def profile_name(name: str) -> str:
    """A regulation profile shared_rules has (the tablets load it by this name)."""
    from shared_rules import profiles

    if name not in profiles.names():
        raise argparse.ArgumentTypeError(f"{name!r}: not a regulation profile; one of {', '.join(profiles.names())}")
    return name


def tls_name(text: str) -> str:
    try:
        return tls.san(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def live_tables(text: str) -> frozenset[tuple[str, int]]:
    from .live_feed import parse_live_tables

    try:
        return parse_live_tables(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def live_delay(text: str) -> float:
    """--live-delay MINUTES, 0 to 30."""
    from .live_feed import delay_seconds

    try:
        minutes = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected minutes, 0 to 30") from None
    try:
        return delay_seconds(minutes)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def live_delay_seconds(text: str) -> float:
    from .live_feed import delay_seconds

    try:
        return delay_seconds(float(text) / 60)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def live_keepalive(text: str) -> float:
    """--live-keepalive SECONDS, 1 to 300."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected seconds, 1 to 300") from None
    if not 1 <= seconds <= 300:
        raise argparse.ArgumentTypeError(f"the keep-alive must be 1 to 300 seconds, not {text}")
    return seconds


def build_parser() -> argparse.ArgumentParser:
    from shared_rules import profiles

    p = argparse.ArgumentParser(prog="python -m station", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", default="station.db",
                   help="SQLite file (default station.db) or a postgresql://user@host/dbname URL")
    p.add_argument("--secrets", default=None, metavar="FILE",
                   help="the file of the station's secrets (director token, the secret the table keys "
                        "derive from), never kept in the database; owner-only (0600), made on first start. "
                        "Default: <db>.secrets beside a SQLite file; required with PostgreSQL (each hall's "
                        "station gets a copy of the same file)")
    p.add_argument("--new-secrets", action="store_true",
                   help="the secrets file is lost or another one: take the file's secrets, or make new ones "
                        "(every table key and the director token change; reprint the keys)")
    p.add_argument("--port", type=int, default=8080, help="HTTP port (default 8080)")
    p.add_argument("--host", default="0.0.0.0", help="interface to listen on (default all)")
    p.add_argument("--event", default=None,
                   help="event id the tablets use in their keys (default: the scoring program's "
                        "event, club-<session date>; before it sends one, club-<today>)")
    p.add_argument("--profile", default=None, type=profile_name,
                   help="the club's regulation profile, given to every tablet with its movement "
                        f"({profiles.listing()}; kept until changed; default: the tablet's own). "
                        "(assumed): values in it rest on no cited regulation text; confirm them with the "
                        "federation")
    p.add_argument("--language", default=None, choices=LANGUAGES,
                   help="the club's language: the club's tablets start in it (the TD may change it at the "
                        "table) and the director page speaks it (a page's ?lang= overrides it for that view); "
                        "kept in the database until changed; default English")
    p.add_argument("--screens", type=screens_spec, action="append", default=None, metavar="all|SECTION[:TABLES]",
                   help="the organiser plays with screens: the whole event (all), a section (A) or tables "
                        "(A:1-4); repeatable; sent to the tablets with their movement (FSB L114, "
                        "2007/2017 L80B2(e)); --screens none clears it")
    p.add_argument("--tables", type=parse_tables, action="append", default=[], metavar="SECTION:TABLES",
                   help="register tables and print their keys, e.g. --tables A:1-12 (repeatable)")
    p.add_argument("--reissue", type=parse_tables, action="append", default=[], metavar="SECTION:TABLES",
                   help="give tables a new key (a lost or replaced tablet); the old key stops working")
    p.add_argument("--late-minutes", type=float, default=10.0,
                   help="a table with a board in progress and no news for this long shows as late (default 10)")
    p.add_argument("--dc-licence-key", default="",
                   help="licence key the scoring program must send (default: the director token)")
    p.add_argument("--club", default=None,
                   help="the club's name, written in the PBN Site tag and the USEBIO CLUB_NAME (remembered)")
    p.add_argument("--club-id", default=None,
                   help="the club's number with its federation, the USEBIO CLUB_ID_NUMBER (remembered)")
    p.add_argument("--bws", default=None, metavar="PATH",
                   help="the scoring program's Bridgemate .bws file (Ruter, Magic Contest): take the "
                        "session from it and write results into it instead of the Data Connector")
    p.add_argument("--bws-odbc", default=None, metavar="CONNECTION",
                   help="ODBC connection string for the .bws, {path} replaced by the file (default: the "
                        "Microsoft Access driver)")
    p.add_argument("--bws-poll", type=float, default=3.0,
                   help="seconds between looks at the .bws for changes (default 3)")
    p.add_argument("--director-pin", default=None, metavar="DIGITS",
                   help="the club's director PIN (4-8 digits) for every table tablet: kept as a salted, "
                        "keyed hash; the tablets ask the station to check it (nothing of it is sent)")
    p.add_argument("--director-grace", default=None, type=int, metavar="SECONDS",
                   help="after the director leaves a tablet's console, how long it reopens without the "
                        "PIN (0-120, default 0: the PIN every time); sent with each table's movement")
    p.add_argument("--no-serve", action="store_true", help="register tables, print keys and exit")
    p.add_argument("--access-log", action="store_true",
                   help="log every request to stderr (method, path and status; never the query string)")
    p.add_argument("--connections-per-address", type=int, default=Limits.per_address, metavar="N",
                   help=f"open connections one client address may hold (default {Limits.per_address}); "
                        "more get 503")
    p.add_argument("--backlog", type=int, default=Limits.backlog, metavar="N",
                   help=f"listen backlog (default {Limits.backlog}, capped by the kernel's somaxconn)")
    p.add_argument("--head-timeout", type=float, default=Limits.head_timeout, metavar="S",
                   help=f"seconds a client has to send its request head (default {Limits.head_timeout:g})")
    p.add_argument("--insecure-http", action="store_true",
                   help="serve plain HTTP instead of TLS (a closed network, a demo; a scoring program on "
                        "another computer needs no such thing: --tls-san and `python -m station cert`)")
    p.add_argument("--tls-dir", default=None, metavar="DIR",
                   help="where the station's TLS certificate and key live (default: <db>.tls beside a "
                        "SQLite file, else ./station-tls); made on first start")
    p.add_argument("--tls-san", type=tls_name, action="append", default=[], metavar="NAME_OR_IP",
                   help="an address the club reaches the station by (the scoring PC's IP address or name), "
                        "named in the station's certificate so a scoring program on another computer can "
                        "verify it; repeatable (localhost, 127.0.0.1 and this computer's name always)")
    p.add_argument("--tls-cert", default=None, metavar="FILE",
                   help="serve the club's own certificate (PEM, the chain after it) instead of the station's; "
                        "with --tls-key")
    p.add_argument("--tls-key", default=None, metavar="FILE", help="the private key (PEM) of --tls-cert")
    p.add_argument("--dc-local-port", type=int, default=5079, metavar="N",
                   help="with TLS: also serve plain HTTP on 127.0.0.1:N (default 5079, the Data Connector's "
                        "own port) for a scoring program on this computer; -1: not at all")
    p.add_argument("--live", action="store_true",
                   help="publish the live feed (vugraph) at /live/: the spectators' page, each table's "
                        "LIN, the push stream (docs/station.md \"The live feed\")")
    p.add_argument("--live-delay", type=live_delay, default=None, metavar="MINUTES",
                   help="show each call this many minutes after it was made, 0 to 30 (default 0)")
    p.add_argument("--live-delay-seconds", type=live_delay_seconds, default=None,
                   help=argparse.SUPPRESS)  # the tests' short delays
    p.add_argument("--live-keepalive", type=live_keepalive, default=None, metavar="SECONDS",
                   help="a comment on a quiet push stream this often, so a proxy that closes idle "
                        "connections keeps it open; 1 to 300 (default 15)")
    p.add_argument("--live-tables", type=live_tables, default=None, metavar="SECTION:TABLES,...",
                   help="the tables shown, e.g. A:1-4,B:1,3 (default: every table)")
    p.add_argument("--live-port", type=int, default=None, metavar="N",
                   help="the port the spectators are served on, by the live feed's own process (default 8090; "
                        "0: any free port, printed); the station's /live/ sends them there")
    p.add_argument("--live-local-port", type=int, default=None, metavar="N",
                   help="with TLS: the live feed also as plain HTTP on 127.0.0.1:N, for a cache on this computer "
                        "(nginx: docs/live-nginx.conf; default 5080); -1: not at all")
    p.add_argument("--http-server", choices=["asyncio", "threading"], default="asyncio",
                   help=argparse.SUPPRESS)  # `threading`: the old stdlib server, for the bench's comparison
    return p


def cert_main(argv: list[str]) -> int:
    """`python -m station cert --export FILE`: the station's certificate for another computer's
    trust store (a scoring program that verifies instead of pinning)."""
    p = argparse.ArgumentParser(prog="python -m station cert", description=cert_main.__doc__)
    p.add_argument("--db", default="station.db", help="the station's database (default station.db): the "
                   "certificate lives beside a SQLite file")
    p.add_argument("--tls-dir", default=None, metavar="DIR", help="where the certificate lives, if not beside the db")
    p.add_argument("--tls-san", type=tls_name, action="append", default=[], metavar="NAME_OR_IP",
                   help="an address the certificate must name (as for the station; repeatable)")
    p.add_argument("--export", required=True, metavar="FILE",
                   help="write the certificate here: DER for FILE.cer/.der (Windows' import), else PEM")
    args = p.parse_args(argv)
    try:
        made = tls.ensure_certificate(pathlib.Path(args.tls_dir) if args.tls_dir else tls.tls_dir_for(args.db),
                                      args.tls_san)
        form = tls.export(made.cert, pathlib.Path(args.export))
    except (OSError, ValueError) as e:
        print(f"station: cannot export the certificate: {e}", file=sys.stderr)
        return 2
    if made.added:
        print(f"station: the certificate now also names {', '.join(made.added)}: its fingerprint changed, "
              "give the tablets the new station address")
    print(f"station: certificate ({form}) written to {args.export}; it names "
          f"{', '.join(tls.names_of(made.cert.read_bytes()))}")
    print(f"station: TLS certificate fingerprint (SHA-256): {made.fingerprint}")
    return 0


def bws_replaced_main(argv: list[str]) -> int:
    """`python -m station bws-replaced write|leave`: the TD's answer to a `.bws` replaced by a file
    the earlier results do not fit (the director page asks). `write`: the earlier results go into
    the new file (those its movement lacks are held); `leave`: the new file is a new session, they
    stay out of it. The running station takes the answer at its next look at the file."""
    from .bws.takeover import ANSWER, CHOICES

    p = argparse.ArgumentParser(prog="python -m station bws-replaced", description=bws_replaced_main.__doc__)
    p.add_argument("choice", choices=CHOICES)
    p.add_argument("--db", default="station.db", help="the station's database (default station.db)")
    args = p.parse_args(argv)
    try:
        store = Store(args.db)
    except Exception as e:  # any failure to open: the message must reach the TD
        print(f"station: cannot open database {args.db!r}: {e}", file=sys.stderr)
        return 2
    try:
        status = json.loads(store.setting("bws/status") or "{}")
        asked = status.get("replaced") if status.get("file") == "replaced" else None
        if not isinstance(asked, dict) or not asked.get("token"):
            print("station: no replaced .bws is waiting for an answer (the director page says what the bridge "
                  "is doing)", file=sys.stderr)
            return 1
        store.set_setting(ANSWER, json.dumps({"token": asked["token"], "choice": args.choice}))
    finally:
        store.close()
    print(f"station: answer '{args.choice}' recorded for {status.get('path')}; the station takes it at its next look "
          "at the file (the director page shows the outcome)")
    return 0


def _print_address_qr(url: str) -> None:
    """The tablets' station address as a QR code for a camera app or a scanner (station/lan_qr.py)."""
    text = lan_qr.terminal_text(url)
    if not lan_qr.printable(text, sys.stdout.encoding):
        print("station: this terminal cannot draw the address's QR code; the director page shows it", flush=True)
        return
    print("station: the same address as a QR code (for a phone's camera app or a scanner):", flush=True)
    print(text, end="", flush=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["cert"]:
        return cert_main(argv[1:])
    if argv[:1] == ["bws-replaced"]:
        return bws_replaced_main(argv[1:])
    if argv[:1] == ["match"]:  # the TD's team matches (station/match_cli.py)
        from .match_cli import main as match_main
        return match_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.live and (args.live_delay is not None or args.live_tables is not None
                          or args.live_delay_seconds is not None or args.live_port is not None
                          or args.live_local_port is not None or args.live_keepalive is not None):
        parser.error("--live-delay, --live-tables, --live-keepalive and --live-port set the live feed: add --live")
    if bool(args.tls_cert) != bool(args.tls_key):
        print("station: --tls-cert and --tls-key go together (the club's certificate and its private key)",
              file=sys.stderr)
        return 2
    if args.tls_cert and args.tls_san:
        print("station: --tls-san names addresses in the station's own certificate; the club's "
              "certificate (--tls-cert) names its own", file=sys.stderr)
        return 2
    try:
        store = Store(args.db, args.secrets)
    except Exception as e:  # any failure to open: the message must reach the club's scorer
        print(f"station: cannot open database {args.db!r}: {e}", file=sys.stderr)
        return 2
    try:
        if args.new_secrets:
            store.forget_secrets()
        token = store.ensure_secret("director_token")
        store.ensure_secret("table_key_secret")  # now: a wrong file is told at start, before anything is written
    except StoreError as e:
        print(f"station: {e}", file=sys.stderr)
        store.close()
        return 2
    if args.director_pin is not None:
        if not re.fullmatch(r"\d{4,8}", args.director_pin):
            print("station: --director-pin must be 4 to 8 digits", file=sys.stderr)
            return 2
        from .director_pin import SECRET, make_verifier

        store.set_setting("director_pin", json.dumps(make_verifier(args.director_pin, store.ensure_secret(SECRET))))
    if args.director_grace is not None:
        if not 0 <= args.director_grace <= 120:
            print("station: --director-grace must be 0 to 120 seconds", file=sys.stderr)
            return 2
        store.set_setting("director_grace_s", str(args.director_grace))
    if args.profile:
        store.set_setting("profile", args.profile)
    if args.language:
        store.set_setting("language", args.language)
    if args.screens is not None:
        specs = [s for s in args.screens if s != "none"]
        profile = args.profile or store.setting("profile")
        if specs and profile:
            from shared_rules import profiles

            if not profiles.load(profile).screens.available:
                print(f"station: --screens: the regulation {profile} has no screen rules (screens need one that "
                      "has: " + ", ".join(n for n in profiles.names() if profiles.load(n).screens.available) + ")",
                      file=sys.stderr)
                return 2
        store.set_setting("screens", json.dumps(specs))
    today = datetime.date.today().isoformat()
    # Never an earlier day's event by default: that mixes weeks in the exports.
    event = args.event or store.default_event(today)
    store.use_event(event, today)
    for name, value in (("club_name", args.club), ("club_id", args.club_id)):
        if value is not None:
            store.set_setting(name, value)
    config = StationConfig(db=args.db, host=args.host, port=args.port, event=event,
                           director_token=token,
                           dc_licence_key=args.dc_licence_key, late_minutes=args.late_minutes,
                           extra={"access_log": args.access_log, "event_named": bool(args.event),
                                  "profile": args.profile or store.setting("profile")})
    station = Station(store, config)
    ssl_context, pin = None, ""
    tls_files: tuple[pathlib.Path, pathlib.Path] | None = None
    if not args.insecure_http:
        try:
            if args.tls_cert:
                cert, key = pathlib.Path(args.tls_cert), pathlib.Path(args.tls_key)
                fp = tls.fingerprint(tls.der_of(cert.read_bytes()))
                added: list[str] = []
            else:
                cert, key, fp, added = tls.ensure_certificate(
                    pathlib.Path(args.tls_dir) if args.tls_dir else tls.tls_dir_for(args.db), args.tls_san)
            ssl_context = tls.server_context(cert, key)
            tls_files = (cert, key)
        except Exception as e:  # unreadable or unwritable directory, a wrong file: say so and stop
            print(f"station: cannot set up TLS ({e}); use --tls-dir DIR, --tls-cert/--tls-key, or --insecure-http",
                  file=sys.stderr)
            return 2
        if added:
            print(f"station: the certificate now also names {', '.join(added)}: its fingerprint changed, "
                  "give the tablets the new station address")
        pin = f"#sha256={fp}"
        config.extra["tls"] = True
        print(f"station: TLS certificate fingerprint (SHA-256): {fp}")
    scheme = "https" if ssl_context else "http"
    for spec, reissue in [(x, False) for x in args.tables] + [(x, True) for x in args.reissue]:
        section, tables = spec
        for t, table_key in station.register_tables(event, section, tables, reissue=reissue).items():
            print(f"table {event}/{section}/{t}  key {table_key}{'  (new key)' if reissue else ''}")
    store.set_setting("integration", "bws" if args.bws else "dataconnector")
    bridge = None
    if args.bws:
        from .bws import Bridge

        bridge = Bridge(station, args.bws, odbc=args.bws_odbc, poll_s=args.bws_poll,
                        say=lambda text: print(text, flush=True))
        bridge.run_once()  # the session's tables and keys before the tablets ask
    if args.tables or args.reissue:
        print(f"tablets: station address {lan.station_url(scheme, args.host, args.port, pin)}")
    if args.no_serve:
        return 0
    try:
        limits = Limits(backlog=args.backlog, per_address=args.connections_per_address,
                        head_timeout=args.head_timeout)
        server = make_server(station, args.http_server, limits, ssl_context)
    except OSError as e:
        print(f"station: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    port = server.server_address[1]
    local = None
    if ssl_context is not None and args.dc_local_port >= 0:
        # The scoring program usually runs on this computer and cannot pin a certificate: plain
        # HTTP on the loopback interface only, which never crosses the club's network.
        try:
            local = make_server(station, args.http_server, limits, None, ("127.0.0.1", args.dc_local_port))
            threading.Thread(target=local.serve_forever, daemon=True).start()
            print(f"station: for a scoring program on this computer: http://localhost:{local.server_address[1]}"
                  f"/ (Data Connector, loopback only)", flush=True)
        except OSError as e:
            print(f"station: port {args.dc_local_port} on 127.0.0.1 is taken ({e}); a scoring program on "
                  "this computer must use the https address", flush=True)
    print(f"station: event {event}, database {args.db}", flush=True)
    print(f"station: listening on {scheme}://{args.host}:{port}/  (Data Connector: /dc-scoringprogram)", flush=True)
    tablet_address = lan.station_url(scheme, args.host, port, pin)
    print(f"station: tablets' station address {tablet_address}", flush=True)
    _print_address_qr(tablet_address)
    config.extra["tablet_address"] = tablet_address
    print(f"station: director page {lan.station_url(scheme, args.host, port)}director?token={config.director_token}",
          flush=True)
    print(f"station: Data Connector licence key: {config.dc_licence_key or config.director_token}", flush=True)
    if bridge is not None:
        print(f"station: scoring program link: .bws bridge to {args.bws}", flush=True)
        bridge.start()

    def stop(*_: object) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()
        if local is not None:
            local.shutdown()

    if args.live:
        try:
            fanout = _start_live(station, args, scheme, tls_files)
        except Exception as e:  # its port taken, ...: the organiser is told, and nothing serves
            print(f"station: cannot start the live feed: {e}", file=sys.stderr, flush=True)
            if station.live is not None:
                station.live.stop()
            server.server_close()
            store.close()
            return 2
        delay = station.live.config.delay_s
        shown = "every table" if args.live_tables is None else \
            ", ".join(f"{s}{t}" for s, t in sorted(args.live_tables))
        print(f"station: live feed {lan.station_url(scheme, args.host, fanout.port)}live/ (delay {delay / 60:g} min; "
              f"{shown}; served by its own process)", flush=True)
        if fanout.local_port is not None:
            print(f"station: live feed for a cache on this computer (nginx): http://127.0.0.1:{fanout.local_port}/live/",
                  flush=True)
    from . import director
    threading.Thread(target=director.warm, args=(station,), daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        if bridge is not None:
            bridge.stop()
        if station.live_fanout is not None:
            station.live_fanout.stop()
        if station.live is not None:
            station.live.stop()
        server.server_close()
        store.close()
    return 0


def _start_live(station: Station, args: argparse.Namespace, scheme: str,
                tls_files: tuple[pathlib.Path, pathlib.Path] | None) -> Any:
    """The live feed in this process, its spectators served by a process of its own
    (station/live_fanout.py); FanoutError if that cannot start."""
    from . import live_http
    from .live_fanout import Fanout
    from .live_feed import LiveConfig, LiveFeed
    from .live_views import KEEPALIVE_S

    delay = args.live_delay_seconds if args.live_delay_seconds is not None else (args.live_delay or 0.0)
    keepalive = KEEPALIVE_S if args.live_keepalive is None else args.live_keepalive
    station.live = LiveFeed(station, LiveConfig(delay, args.live_tables, keepalive)).start()
    argv = ["--host", args.host, "--port", str(8090 if args.live_port is None else args.live_port),
            "--connections-per-address", str(args.connections_per_address), "--backlog", str(args.backlog),
            "--head-timeout", str(args.head_timeout)]
    if tls_files is not None:
        argv += ["--tls-cert", str(tls_files[0]), "--tls-key", str(tls_files[1]),
                 "--local-port", str(5080 if args.live_local_port is None else args.live_local_port)]
    if args.access_log:
        argv.append("--access-log")
    fanout = Fanout(station.live, argv, live_http.title_of(station), scheme, lan.lan_address(args.host))
    station.live_fanout = fanout.start()
    return fanout


if __name__ == "__main__":
    sys.exit(main())
