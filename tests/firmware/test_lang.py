"""The box's words in English, Swedish and Danish (firmware/lang.py): every text the box
composes fits its 12-column line whole, in every language, and uses only glyphs the font has
(an empty box on the panel would be a word the player cannot read)."""
import sys

from tests.conftest import ROOT

sys.path[:0] = [str(ROOT / "firmware"), str(ROOT)]
import font16  # noqa: E402
import lang as T  # noqa: E402
import render  # noqa: E402

LANGS = (1, 2, 3)


def shown(b: bytes) -> str:
    return b.decode("latin-1")


def words(lg: int) -> list[bytes]:
    return [T.text(lg, i) for i in range(T.SEAT)]


def seats(lg: int) -> list[bytes]:
    return [T.text(lg, T.SEAT + s) for s in range(4)]


def vuls(lg: int) -> list[bytes]:
    return [T.text(lg, T.VUL_NAME + v) for v in range(4)]


def test_each_language_holds_every_text_once_in_its_one_constant():
    # lang.py keeps a language's texts in one bytes constant, "|" after each (a constant per
    # word would cost the box's heap a block pair each): a text lost or split shifts all after it
    for lg in range(4):
        s = T.TEXTS[lg]
        assert s.endswith(b"|") and s.count(b"|") == T.COUNT, lg
        assert len(T.AT[lg]) == T.COUNT + 1 and T.AT[lg][-1] == len(s)
        assert all(T.text(lg, i) for i in range(T.COUNT)), lg  # no empty text
    assert T.COUNT == T.NT + 1 and T.SEAT == T.STOP_Q + 1


def test_every_word_decodes_to_glyphs_the_font_has():
    for lg in range(4):
        texts = [*(T.text(lg, i) for i in range(T.COUNT)), T.LETTERS[lg]]
        for t in texts:
            assert isinstance(t, bytes)
            assert all(font16.MAP[b] != font16.OTHER for b in t), (lg, shown(t))
            assert shown(t) == shown(t).upper(), shown(t)  # capitals only (hardware/display.md)


def test_every_composed_line_fits_twelve_columns_in_every_language():
    w = render.WIDTH
    for lg in LANGS:
        t = [T.text(lg, i) for i in range(T.COUNT)]
        longest_seat = max(len(s) for s in seats(lg))
        longest_vul = max(len(v) for v in vuls(lg))
        names = t
        longest_call = max(len(names[T.PASS]), 1 + len(names[T.NT]), len(names[T.REDOUBLE]))
        assert len(t[T.TURN]) + longest_seat <= w, lg
        assert len(t[T.DEALER]) + longest_seat <= w, lg
        assert len(t[T.VUL]) + longest_vul <= w, lg
        assert longest_call + len(t[T.SENDING]) <= w, lg
        assert longest_call + len(t[T.STOP_Q]) <= w and longest_call + len(" OK?") <= w
        assert len(t[T.MIN]) + 1 + len(names[T.NT]) <= w, lg
        assert 2 + len(t[T.BOARD]) + 3 <= w, lg  # "N BOARD 255"
        assert len(t[T.REVIEW]) + len("9/9") <= w, lg  # from 10 pages the pages alone
        assert len(t[T.STOP]) + 2 <= w, lg  # the stop wait's seconds (at most 65)
        for word in words(lg):
            assert len(word) <= w, shown(word)
        # an auction cell: seat letter, space, call, mark
        assert 2 + max(len(names[T.PASS_CELL]), 1 + len(names[T.NT]), len(names[T.REDOUBLE])) + 1 \
            <= render.SLOT


def test_seat_letters_and_call_names_are_the_national_ones():
    # docs/box-language.md: Swedish N Ö S V, Danish N Ø S V; X and XX as the keys say (hardware/
    # enclosure.md, "Key legends"); Danish PAS and UT (uden trumf)
    assert [shown(T.LETTERS[lg]) for lg in LANGS] == ["NESW", "N\xd6SV", "N\xd8SV"]
    assert [shown(T.text(lg, T.DOUBLE)) + shown(T.text(lg, T.REDOUBLE)) for lg in LANGS] == [
        "XXX", "XXX", "XXX"]
    assert [shown(T.text(lg, T.STOP)).strip() for lg in LANGS] == ["STOP", "STOPP", "STOP"]
    assert [shown(T.text(lg, T.NT)) for lg in LANGS] == ["NT", "NT", "UT"]
    assert [shown(T.text(lg, T.PASS)) for lg in LANGS] == ["PASS", "PASS", "PAS"]
    assert [shown(b" ".join(seats(lg))) for lg in LANGS] == [
        "NORTH EAST SOUTH WEST", "NORD \xd6ST SYD V\xc4ST", "NORD \xd8ST SYD VEST"]
    # no language given, or one the box lacks: English
    assert T.TEXTS[T.of(0)] is T.TEXTS[T.of(200)] is T.TEXTS[1]
