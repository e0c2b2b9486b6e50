"""What every UI driver (tests/ui/drive_*.py) starts with, so that a driver holds only its scenario:
its arguments, a controller on a fresh journal in OUT_DIR on the settable clock, the real Kivy app
on it, the checks and screenshots (shots.py), boxes stood in for, and the run that writes
OUT_DIR/checks.json at the end. A driver runs as a module from the repository's root (the pytest
side, conftest.run_driver, runs it so under Xvfb):

    python -m tests.ui.drive_NAME OUT_DIR [SHOTS_DIR] [MORE...]

Boxes are stood in for by `Controller.box_event` (the link is tested end to end in tests/e2e);
every director and result action goes through the app's own buttons.
"""
from __future__ import annotations

import json
import pathlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.ui.shots import PACE_S, Clock, Shots, sign_in

if TYPE_CHECKING:
    from tablet_app.control.auction import BoxReply
    from tablet_app.controller import Controller
    from tablet_app.session import Session

Step = Callable[[float], Any]


class Driver:
    """One driver's run. `out`: OUT_DIR (made here); `shots_dir`: SHOTS_DIR or None; `more`: the
    arguments after them; `clock`: the wall clock the controller runs on (a player's thought moves
    it); `checks`: what the pytest side asserts on; `think`: how long a player thinks before a box's
    event when the scenario does not say."""

    def __init__(self, argv: list[str] | None = None, think: float = 2.0) -> None:
        argv = sys.argv[1:] if argv is None else argv
        self.out = pathlib.Path(argv[0])
        self.shots_dir = pathlib.Path(argv[1]) if len(argv) > 1 else None
        self.more = argv[2:]
        self.out.mkdir(parents=True, exist_ok=True)
        self.clock = Clock()
        self.think = think
        self.checks: dict[str, Any] = {}
        self.shots = Shots(None, self.checks, self.shots_dir)
        self.pin: str | None = None
        self._ctl: Controller | None = None

    def controller(self, session: dict[str, Any] | Session | None = None, **options: Any) -> Controller:
        """The controller on OUT_DIR/journal.db and the driver's clock (`options` go to
        `Controller`), set up with `session` when one is given; the PIN of a session given as the
        setup screen's values is what `sign_in` types."""
        from tablet_app.controller import Controller

        ctl = Controller(self.out / "journal.db", clock=self.clock, **options)
        if session is not None:
            ctl.setup(session)
        if isinstance(session, dict):
            self.pin = session.get("td_pin")
        self._ctl = ctl
        return ctl

    @property
    def ctl(self) -> Controller:
        assert self._ctl is not None, "Driver.controller() first"
        return self._ctl

    def open_app(self, lang: str = "en", **options: Any) -> Any:
        """The real Kivy app on the controller (`options` go to `TabletApp`), not yet running.
        Kivy is imported here, once the controller and its journal are made."""
        import tablet_app.app as A

        app = A.TabletApp(self.ctl, lang=lang, **options)
        self.shots.app = app
        return app

    @property
    def app(self) -> Any:
        """The app: the one `open_app` made, or the running one once a step runs."""
        return self.shots.app

    def box(self, seat: str, call: str | None = None, kind: str = "call", think: float | None = None,
            stop: bool = False) -> BoxReply:
        """A box's event, `think` seconds (the driver's `think` when not given) after the last."""
        self.clock.t += self.think if think is None else think
        return self.ctl.box_event(seat, kind, call=call, stop=stop)

    def station_result(self, table: int, board: int, contract: str, declarer: str, tricks: int, score: int,
                       entered_at: str) -> dict[str, Any]:
        """Table `table`'s result of `board` in this round as the station gives it back (a line of
        the traveller): the record its tablet sent (shared_rules.records.Result, docs/interfaces.md
        section 3), its pairs `table` and `table + 10`."""
        from shared_rules.boards import dealer, vulnerability
        from shared_rules.records import Result, ResultKey, TableId

        s = self.ctl.session
        assert s is not None, "the session first"
        return Result(ResultKey(TableId(s.event, s.section, table), s.round, board), table, table + 10, dealer(board),
                      vulnerability(board), contract, declarer, tricks, None, score, entered_at).to_json()

    def sign_in(self, pin: str | None = None) -> Any:
        """The director console, signed in with `pin` (the session's PIN when not given)."""
        pin = pin or self.pin
        assert pin is not None, "no PIN: give one, or set the session up with its td_pin"
        return sign_in(self.app, pin)

    def run(self, steps: list[Step], on_end: Callable[[], None] | None = None,
            pace: float | None = PACE_S) -> None:
        """The steps on Kivy's clock in the app `open_app` made; returns when the app has stopped.
        `pace`: seconds between steps, or None: each step once the screen stands still after the
        last (shots.Shots.run)."""
        self.shots.run(steps, self.out, on_end, pace)
        self.app.run()

    def run_main(self, steps: list[Step], argv: list[str], pace: float | None = PACE_S) -> None:
        """The steps in the app as `python -m tablet_app.app ARGV` starts it (`tablet_app.app.main`,
        which opens the journal itself); its return code goes into checks.json as `rc`. `pace`:
        as for `run`."""
        import tablet_app.app as A

        self.shots.run(steps, self.out, pace=pace)
        rc = A.main(argv)
        checks_file = self.out / "checks.json"
        data = json.loads(checks_file.read_text())
        data["rc"] = rc
        checks_file.write_text(json.dumps(data, indent=1, ensure_ascii=False))
