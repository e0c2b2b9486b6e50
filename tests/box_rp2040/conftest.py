import pytest


@pytest.fixture(scope="session")
def emu_snapshots(tmp_path_factory):
    """One folder of booted boxes' states for the run (hardware/emu/snapshot.js): each kind of box
    boots from reset once, in the first test that starts one, and later tests start it from the
    moment its firmware enabled the UART, as that boot left it."""
    return tmp_path_factory.mktemp("emu-snapshots")


@pytest.fixture
def emu_rig(tmp_path, rp2040_emulator, emu_snapshots):
    """Factory of EmuRig (boxes on emulated RP2040s + the real tablet): closed after the test."""
    from hardware.emu.rig import EmuRig

    made = []

    def make(**kw):
        r = EmuRig(tmp_path / f"rig{len(made)}", snapshots=emu_snapshots, **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()
