"""What the box prompts comes from the tablet's profile, in the STATE: never a rule hard-coded in
the firmware. Four unix-port boxes, the real LinkMaster, controller and laws engine."""
import pytest

from tests.e2e.conftest import SESSION
from tests.e2e.harness import E2ETable, Rig

pytestmark = [pytest.mark.micropython, pytest.mark.slow, pytest.mark.link]


def test_stop_prompt_before_a_two_level_opening_only_where_the_profile_asks_for_it(
        tmp_path, micropython_bin):
    # Found under dbf-2017: N's box prompted "STOP?" before a 2H opening, which only the Swedish
    # regulation (FSB L116B1) asks for; 2017 L73A1 names the jump bid alone.
    rig = Rig(tmp_path / "boxes")
    try:
        for i, (profile, bid, prompts) in enumerate((("dbf-2017", "2H", False),
                                                     ("fsb-2007", "2S", True))):
            t = E2ETable(rig, tmp_path / f"j{i}.db", {**SESSION, "profile": profile})
            try:
                # the new table's STATE has reached the box (it acknowledged it)
                t.wait(lambda c: rig.master.state_acked("N"), 10, "N acked the STATE")
                rig.boxes.wait_screen("N", lambda s: s.status == "YOUR TURN", 10)
                rig.boxes.press("N", "CLR " + " ".join(bid))
                sc = rig.boxes.wait_screen("N", lambda s, b=bid: b + " OK?" in s.selection, 10)
                assert ("STOP?" in sc.selection) == prompts, (profile, sc.lines)
            finally:
                t.close()
    finally:
        rig.close()
