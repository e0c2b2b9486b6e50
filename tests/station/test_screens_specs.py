"""`python -m station --screens`: which tables the organiser's values name (station/screens.py)."""
from __future__ import annotations

import pytest

from station import screens


@pytest.mark.parametrize("bad", ["A:4-1", "a", "A:x", "B:1;2"])
def test_a_bad_screens_value_is_refused(bad):
    with pytest.raises(ValueError):
        screens.parse(bad)


def test_which_tables_the_specs_cover():
    assert screens.covers(["all"], "B", 9)
    assert screens.covers(["A"], "A", 7) and not screens.covers(["A"], "B", 7)
    assert screens.covers(["A:1-4,7"], "A", 7) and not screens.covers(["A:1-4,7"], "A", 5)
    assert screens.stored('["A:1"]') == ["A:1"] and screens.stored("garbage") == [] and screens.stored(None) == []
