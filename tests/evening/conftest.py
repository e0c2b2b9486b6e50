"""The evening tests' fixtures: the station tests' real Chromium, for the screen match's
spectator page."""
from tests.station.conftest import chromium  # noqa: F401 - the fixture, shared
