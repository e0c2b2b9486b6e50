import pytest


@pytest.fixture
def sim_table(tmp_path, micropython_bin):
    """Factory: a started SimTable (link, four MicroPython boxes, LinkMaster, scripted tablet)."""
    from hardware.sim.table import SimTable

    tables = []

    def make(**kw):
        t = SimTable(tmp_path / f"table{len(tables)}", **kw).__enter__()
        tables.append(t)
        return t

    yield make
    for t in tables:
        t.close()
