import pytest

from tests.e2e.harness import Rig


@pytest.fixture(scope="module")
def rig(tmp_path_factory, micropython_bin):
    r = Rig(tmp_path_factory.mktemp("boxes"))
    yield r
    r.close()


SESSION = {"event": "club-2026-11-22", "section": "A", "table": 1, "round": 1, "boards": [1, 2],
           "ns_pair": 1, "ew_pair": 2, "profile": "dbf-2017", "td_pin": "2468", "tables": 3}


@pytest.fixture
def table(rig, tmp_path):
    from tests.e2e.harness import E2ETable

    made = []

    def make(**over):
        t = E2ETable(rig, tmp_path / f"journal{len(made)}.db", {**SESSION, **over})
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()
