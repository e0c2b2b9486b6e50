"""Law 2 (2007 and 2017 alike): dealer and vulnerability for every board number."""
import pytest

from shared_rules.boards import dealer, is_vulnerable, vulnerability

# The law's own table, by the lists it gives (S07 L2, D17 L2).
DEALER_LISTS = {"N": (1, 5, 9, 13), "E": (2, 6, 10, 14), "S": (3, 7, 11, 15), "W": (4, 8, 12, 16)}
VUL_LISTS = {"None": (1, 8, 11, 14), "NS": (2, 5, 12, 15), "EW": (3, 6, 9, 16), "All": (4, 7, 10, 13)}


@pytest.mark.parametrize("board", range(1, 129))
def test_law2_series_repeats_every_16_boards(board):
    base = (board - 1) % 16 + 1
    assert dealer(board) == next(s for s, boards in DEALER_LISTS.items() if base in boards)
    assert vulnerability(board) == next(v for v, boards in VUL_LISTS.items() if base in boards)


def test_law2_closed_form_agrees_with_table_for_many_boards():
    # An independent statement of the same law, checked far past 16.
    for board in range(1, 2000):
        k = (board - 1) % 16
        assert vulnerability(board) == ["None", "NS", "EW", "All"][(k + k // 4) % 4]


def test_law2_spot_checks_above_16():
    assert (dealer(17), vulnerability(17)) == ("N", "None")
    assert (dealer(32), vulnerability(32)) == ("W", "EW")
    assert (dealer(36), vulnerability(36)) == ("W", "All")


def test_is_vulnerable_by_seat():
    assert is_vulnerable(2, "N") and is_vulnerable(2, "S") and not is_vulnerable(2, "E")
    assert not is_vulnerable(1, "W") and is_vulnerable(4, "W")


@pytest.mark.parametrize("bad", [0, -3, 1.5, "5", True, None])
def test_bad_board_numbers_are_rejected(bad):
    with pytest.raises(ValueError):
        dealer(bad)
    with pytest.raises(ValueError):
        vulnerability(bad)
