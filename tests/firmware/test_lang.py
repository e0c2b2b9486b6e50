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


def test_every_word_decodes_to_glyphs_the_font_has():
    for lg in range(4):
        texts = [*T.WORDS[lg], *T.SEATS[lg], *T.VULS[lg], *T.CALLS[lg], T.LETTERS[lg]]
        for t in texts:
            assert isinstance(t, bytes)
            assert all(font16.MAP[b] != font16.OTHER for b in t), (lg, shown(t))
            assert shown(t) == shown(t).upper(), shown(t)  # capitals only (hardware/display.md)


def test_every_composed_line_fits_twelve_columns_in_every_language():
    w = render.WIDTH
    for lg in LANGS:
        t = T.WORDS[lg]
        longest_seat = max(len(s) for s in T.SEATS[lg])
        longest_vul = max(len(v) for v in T.VULS[lg])
        names = T.CALLS[lg]
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
        for word in t:
            assert len(word) <= w, shown(word)
        # an auction cell: seat letter, space, call, mark
        assert 2 + max(len(names[T.PASS_CELL]), 1 + len(names[T.NT]), len(names[T.REDOUBLE])) + 1 \
            <= render.SLOT


def test_seat_letters_and_call_names_are_the_national_ones():
    # docs/box-language.md: Swedish N Ö S V, Danish N Ø S V; X and XX as the keys say (hardware/
    # enclosure.md, "Key legends"); Danish PAS and UT (uden trumf)
    assert [shown(T.LETTERS[lg]) for lg in LANGS] == ["NESW", "N\xd6SV", "N\xd8SV"]
    assert [shown(T.CALLS[lg][T.DOUBLE]) + shown(T.CALLS[lg][T.REDOUBLE]) for lg in LANGS] == [
        "XXX", "XXX", "XXX"]
    assert [shown(T.WORDS[lg][T.STOP]).strip() for lg in LANGS] == ["STOP", "STOPP", "STOP"]
    assert [shown(T.CALLS[lg][T.NT]) for lg in LANGS] == ["NT", "NT", "UT"]
    assert [shown(T.CALLS[lg][T.PASS]) for lg in LANGS] == ["PASS", "PASS", "PAS"]
    assert T.of(0) == T.of(1) == T.of(200) == 0 or T.WORDS[T.of(200)] is T.WORDS[1]
