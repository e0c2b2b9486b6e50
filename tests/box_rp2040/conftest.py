import pytest


@pytest.fixture
def emu_rig(tmp_path, rp2040_emulator):
    """Factory of EmuRig (boxes on emulated RP2040s + the real tablet): closed after the test."""
    from hardware.emu.rig import EmuRig

    made = []

    def make(**kw):
        r = EmuRig(tmp_path / f"rig{len(made)}", **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()
