import pytest

from hardware.emu.harness import missing


@pytest.fixture
def emu_rig(tmp_path):
    """Factory of EmuRig (boxes on emulated RP2040s + the real tablet): closed after the test."""
    why = missing()
    if why:
        pytest.skip(why)
    from hardware.emu.rig import EmuRig

    made = []

    def make(**kw):
        r = EmuRig(tmp_path / f"rig{len(made)}", **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()
