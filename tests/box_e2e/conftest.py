import pytest


@pytest.fixture
def real_table(tmp_path, micropython_bin):
    """Factory: a started RealTable (link, four MicroPython boxes, LinkMaster, the real tablet:
    controller, laws engine, journal, runner)."""
    from hardware.sim.table import RealTable

    tables = []

    def make(**kw):
        t = RealTable(tmp_path / f"table{len(tables)}", **kw).__enter__()
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()
