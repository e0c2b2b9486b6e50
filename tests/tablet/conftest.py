import pytest


class Clock:
    """A hand-wound clock: tests decide how long each player thinks."""

    def __init__(self, t: float = 1_763_800_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


@pytest.fixture
def clock():
    return Clock()


SESSION = {
    "event": "club-2026-11-22", "section": "A", "table": 3, "round": 2, "boards": [1, 2, 3],
    "ns_pair": 1, "ew_pair": 8, "profile": "dbf-2017", "td_pin": "4321", "tables": 5,
}


@pytest.fixture
def make_controller(tmp_path, clock):
    from tablet_app.controller import Controller

    made = []

    def make(db=None, **kw):
        # the real engine (shared_rules.table), profiles and outbox: the controller's defaults
        c = Controller(db or tmp_path / "journal.db", clock=clock, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        try:
            c.close()
        except Exception:
            pass


@pytest.fixture
def station(tmp_path):
    """A real station over HTTP with the club's director PIN and regulations."""
    from tests.station.conftest import StationProcess

    st = StationProcess(str(tmp_path / "station.db"), tmp_path,
                        ["--director-pin", "97531", "--profile", "dbf-2017"]).start()
    yield st
    st.stop()
