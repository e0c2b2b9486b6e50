"""The Swedish and Danish bridge words of the tablet and the box are the federations' own: the
terms of the Swedish 2007 laws with FSB's supplements and of the Danish 2017 laws, as
docs/glossary.md lists them with the Law each comes from.

Two checks, mechanical because no native reader is at hand: where a text's English uses a term,
its Swedish and Danish use the glossary's word (any inflection: the patterns are stems); and no
Swedish or Danish text uses a variant the glossary lists as wrong. The box's texts (12 columns)
may use the box's short form where the law's word does not fit (docs/box-language.md)."""
from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from shared_rules.types import Decision, IrregularityKind, Resolution, TimingKind
from shared_rules.vocabulary import engine as engine_words
from shared_rules.vocabulary import refusals as refusal_words
from shared_rules.vocabulary import seats as seat_words
from station import director_texts, link_texts, live_card_texts, live_texts, notice_texts
from tablet_app import i18n, law_texts, option_texts, station_texts
from tablet_app.link import box_words
from tests.conftest import ROOT

sys.path[:0] = [str(ROOT / "firmware")]
import lang as box_lang  # noqa: E402  (the box's module, by its bare name as on the board)

DOC = ROOT / "docs" / "glossary.md"


@dataclass(frozen=True)
class Term:
    name: str  # the glossary's row
    en: str  # where the English text uses the term (a regex, case-insensitive)
    sv: str  # the Swedish word's stem(s) (a regex, case-insensitive)
    da: str
    words: tuple[str, str]  # the Swedish and Danish words docs/glossary.md must name
    not_en: str | None = None  # English uses of the word that are not the bridge term
    box_sv: str | None = None  # the box's form where the law's word does not fit 12 columns
    box_da: str | None = None


TERMS = (
    Term("director", r"\bdirector\b|\bTD\b", r"tävlingsledar|\bTL\b", r"turneringsleder|\bTL\b",
         ("tävlingsledare", "turneringsleder")),
    Term("call", r"\bcalls?\b", r"bud|bjud", r"meld", ("bud", "melding"),
         not_en=r"\bcall(s|ed|ing)?\b (for |of |on )?(the )?(director|TD)\b|\b(director|TD)(['’]s)? calls?\b"
                r"|\bcall the\b|\bcalled\b"),
    Term("pass", r"\bpass(es|ed)?\b", r"\bpass", r"\bpas", ("pass", "pas"),
         not_en=r"\bpass(es|ed)? (under )?the screen\b|\btray pass"),
    Term("double", r"\bdoubles?\b", r"dubb", r"dobl", ("dubbelt", "dobling")),
    Term("redouble", r"\bredoubl", r"redubb", r"redobl", ("redubbelt", "redobling")),
    Term("alert", r"\balert", r"alert", r"alert", ("alertering", "alert")),
    Term("stop", r"\bstop\b", r"stopp", r"\bstop", ("stopp", "stop")),
    Term("screen", r"\bscreens?\b", r"skärm", r"skærm", ("skärm", "skærm")),
    Term("tray", r"\btray\b", r"budbrick", r"bakke", ("budbricka", "bakke"),
         not_en=r"\bboards? in the tray\b"),  # the board on the table, not the screen's tray
    Term("insufficient bid", r"\binsufficient\b", r"otillräckl", r"utilstrækkel",
         ("otillräckligt bud", "utilstrækkeligt bud"), box_sv=r"FÖR LÅGT", box_da=r"FOR LAVT"),
    Term("out of rotation", r"\bout of (rotation|turn)\b", r"\butom tur\b", r"\buden for tur\b",
         ("utom tur", "uden for tur")),
    Term("lead", r"\blead(s)?\b|\bled\b", r"utspel", r"udspil|\bud\b", ("utspel", "udspil")),
    Term("declarer", r"\bdeclarer", r"spelförar", r"spilfører", ("spelförare", "spilfører")),
    Term("dummy", r"\bdummy", r"träkarl", r"\bblinde|\bbordet", ("träkarl", "blinde")),
    Term("dealer", r"\bdealer\b", r"\bgivare", r"kortgiver", ("givare", "kortgiver"),
         box_sv=r"\bGIVARE", box_da=r"\bGIVER"),
    Term("board", r"\bboards?\b", r"brick", r"\bspil|mappe", ("bricka", "spil")),
    Term("round", r"\brounds?\b", r"\brond", r"\brunde", ("rond", "runde")),
    Term("table", r"\btables?\b", r"\bbord", r"\bbord", ("bord", "bord"),
         # the tablet lying flat (ui/widgets.Facing); a table of the .bws database (docs/bws.md)
         not_en=r"\bflat table\b|\b(Section|PlayerNumbers) table\b"),
    Term("pair", r"\bpairs?\b", r"\bpar", r"\bpar", ("par", "par")),
    Term("partner", r"\bpartner", r"partner|medspelar", r"makker", ("partner", "makker")),
    Term("vulnerable", r"\bvulnerab|\blove all\b|\bgame all\b", r"riskzon|ofarlig zon", r"farezone",
         ("i riskzonen", "i farezonen"), box_sv=r"\bZON\b", box_da=r"\bZONE\b"),
    Term("auction", r"\bauction", r"budgivning|\bbuden\b", r"meldeforløb|\bmeldinger(ne)?\b",
         ("budgivning", "meldeforløb"), box_sv=r"\bBUDEN\b", box_da=r"\bMELDING\b"),
    Term("trick", r"\btricks?\b", r"\bstick", r"\bstik", ("stick", "stik")),
    Term("irregularity", r"\birregularit", r"felaktighet|regelbrott", r"uregelmæssighed",
         ("felaktighet", "uregelmæssighed")),
    Term("rectification", r"\brectif", r"korriger", r"berigtig", ("korrigering", "berigtigelse")),
    Term("penalty card", r"\bpenalty cards?\b", r"straffkort", r"strafkort", ("straffkort", "strafkort")),
    Term("adjusted score", r"\badjusted\b", r"korrigera", r"justeret", ("korrigerad poäng", "justeret score")),
    Term("average", r"\bavg\b|\baverage\b", r"\bmedel\b", r"\bmiddel\b", ("medel", "middel")),
    Term("contract", r"\bcontract", r"kontrakt", r"kontrakt", ("kontrakt", "kontrakt")),
    Term("section", r"\bsections?\b", r"sektion", r"række", ("sektion", "række")),
    Term("North", r"\bNorth\b", r"\bNord", r"\bNord", ("Nord", "Nord")),
    Term("East", r"\bEast\b", r"\bÖst", r"\bØst", ("Öst", "Øst")),
    Term("South", r"\bSouth\b", r"\bSyd", r"\bSyd", ("Syd", "Syd")),
    Term("West", r"\bWest\b", r"\bVäst", r"\bVest", ("Väst", "Vest")),
)

# Variants the law texts do not use for these terms (docs/glossary.md, "wrong variants").
WRONG = {
    "sv": (r"\bkontra\b", r"\brekontra\b", r"\bpas\b", r"\bstop\b", r"\bi fel tur\b", r"\bur tur\b",
           r"\bdeklarant", r"\bblindspelar", r"\bdummy\b", r"\brunda\b", r"\boegentlig",
           r"\bjusterad", r"\bjusterat", r"\bunder medel\b", r"\böver medel\b", r"\bi zon(en)?\b",
           r"\bvarning\b", r"\bdomare\b", r"\bmeldning", r"\bväster\b", r"\böster\b",
           # the scoring program is "tävlingsdatorn" on every page (docs/glossary.md)
           r"\bräkneprogram",
           # "giv" is the deal (S07 Definitioner "Giv"); the dealer is "givare"
           r"^giv$"),
    "da": (r"\bkontra\b", r"\brekontra\b", r"\bpass\b", r"\budenfor tur\b", r"\bdeklarant", r"\btræmand",
           r"\bdummy\b", r"\bomgang", r"\bunder middel\b", r"\bover middel\b", r"\bi zonen\b",
           r"\badvarsel\b", r"\bdommer\b", r"\bturneringsdirektør", r"\bbudgivning", r"\buantagelig",
           r"utilstrækkelige? melding", r"\bdobbelt\b", r"\bpartner\b", r"\bboard\b", r"\bvesten\b",
           r"\bregneprogram"),
}

PLACEHOLDER = re.compile(r"\{[^}]*\}|\[/?[a-z]+(=[^\]]*)?\]")


def _plain(text: str) -> str:
    """The words of a text: no {fields}, no Kivy markup."""
    return PLACEHOLDER.sub(" ", text)


def _triples(value: Any, where: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Every {en, sv, da} text under `value` (dicts, lists and tuples walked), with where it is."""
    if isinstance(value, dict):
        if {"en", "sv", "da"} <= value.keys() and all(isinstance(value[k], str) for k in ("en", "sv", "da")):
            yield where, {k: value[k] for k in ("en", "sv", "da")}
            return
        for k, v in value.items():
            yield from _triples(v, f"{where}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _triples(v, f"{where}[{i}]")


def tablet_texts() -> list[tuple[str, dict[str, str]]]:
    out: list[tuple[str, dict[str, str]]] = []
    for mod in (i18n, option_texts, law_texts, station_texts):
        for name, value in vars(mod).items():
            if name.startswith("__") or (mod is law_texts and name == "BOX"):
                continue
            out += _triples(value, f"{mod.__name__}.{name}")
    # the engine's names, through the functions the screens call (wherever their tables live)
    for enum, name_of in ((IrregularityKind, i18n.irregularity_name), (Decision, i18n.decision_name),
                          (TimingKind, i18n.flag_name), (Resolution, i18n.wrong_board_outcome)):
        for member in enum:
            words = [name_of(member, lang) for lang in ("en", "sv", "da")]
            if all(isinstance(w, str) for w in words):  # wrong_board_outcome: None for some outcomes
                out.append((f"{enum.__name__}.{member.name}", {"en": str(words[0]), "sv": str(words[1]),
                                                               "da": str(words[2])}))
    for table, name in ((i18n.SEAT_NAMES, "SEAT_NAMES"), (i18n.VUL_NAMES, "VUL_NAMES")):
        for key in table["en"]:
            out.append((f"i18n.{name}[{key!r}]", {lang: table[lang][key] for lang in ("en", "sv", "da")}))
    return out


def box_texts() -> list[tuple[str, dict[str, str]]]:
    words = {lang: raw.decode("latin-1").split("|")[:-1]
             for lang, raw in (("en", box_lang._EN), ("sv", box_lang._SV), ("da", box_lang._DA))}
    out = [(f"firmware/lang.py word {i}", {lang: words[lang][i] for lang in words}) for i in range(len(words["en"]))]
    out += [(f"box_words.MESSAGES[{k!r}]", dict(zip(("en", "sv", "da"), v, strict=True)))
            for k, v in box_words.MESSAGES.items()]
    out += _triples(law_texts.BOX, "law_texts.BOX")
    return out


def uses(term: Term, english: str) -> bool:
    text = _plain(english)
    if term.not_en:
        text = re.sub(term.not_en, " ", text, flags=re.I)
    return re.search(term.en, text, re.I) is not None


def misses(texts: list[tuple[str, dict[str, str]]], lang: str, box: bool) -> list[str]:
    """The texts whose English uses a term and whose `lang` does not use the glossary's word."""
    out = []
    for where, t in texts:
        for term in TERMS:
            if not uses(term, t["en"]):
                continue
            want = getattr(term, lang)
            short = getattr(term, f"box_{lang}") if box else None
            said = _plain(t[lang])
            if not re.search(want, said, re.I) and not (short and re.search(short, said, re.I)):
                out.append(f"{where}: {term.name}: {t['en']!r} -> {t[lang]!r}")
    return out


def wrong(texts: list[tuple[str, dict[str, str]]], lang: str) -> list[str]:
    return [f"{where}: {pat!r} in {t[lang]!r}" for where, t in texts for pat in WRONG[lang]
            if re.search(pat, _plain(t[lang]).strip(), re.I)]


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_the_tablets_texts_use_the_glossarys_terms(lang):
    texts = tablet_texts()
    assert len(texts) > 300  # the tables were found
    assert misses(texts, lang, box=False) == []


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_the_boxs_texts_use_the_glossarys_terms(lang):
    texts = box_texts()
    assert len(texts) > 50
    assert misses(texts, lang, box=True) == []


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_no_text_uses_a_wrong_variant(lang):
    assert wrong(tablet_texts() + box_texts(), lang) == []


def station_page_texts() -> list[tuple[str, dict[str, str]]]:
    """The station's pages' texts: the director page (station/director_texts.py, its scoring-program
    line and team matches in station/link_texts.py, its own troubles in station/notice_texts.py),
    the station's refusals (shared_rules/vocabulary/refusals.py, on the tablet and the page), the
    engine's names both pages show (shared_rules/vocabulary/engine.py) and the spectators' live
    page (station/live_texts.py, station/live_card_texts.py) with the seats and vulnerability
    (shared_rules/vocabulary/seats.py)."""
    return [(where, {"en": t.get("en", ""), "sv": t["sv"], "da": t["da"]})
            for mod in (director_texts, link_texts, notice_texts, refusal_words, engine_words, live_texts,
                        live_card_texts, seat_words)
            for where, t in _page_triples(mod)]


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_the_director_pages_texts_use_no_wrong_variant(lang):
    """The station's pages and the station's refusals speak the same words as the tablet."""
    page = station_page_texts()
    assert len(page) > 50
    assert wrong(page, lang) == []


@pytest.mark.parametrize("lang", ("sv", "da"))
def test_the_director_pages_texts_use_the_glossarys_terms(lang):
    """Where a station page's English uses a term, its Swedish and Danish use the glossary's word:
    every text carries its English (a text without it could not be checked)."""
    page = station_page_texts()
    assert len(page) > 500  # the tables were found
    assert [where for where, t in page if not t["en"]] == []
    assert misses(page, lang, box=False) == []


def _page_triples(mod: Any) -> Iterator[tuple[str, dict[str, str]]]:
    """The director page's texts: {sv, da} with or without their English."""
    def walk(value: Any, where: str) -> Iterator[tuple[str, dict[str, str]]]:
        if isinstance(value, dict):
            if {"sv", "da"} <= value.keys() and all(isinstance(value[k], str) for k in ("sv", "da")):
                yield where, value
                return
            for k, v in value.items():
                yield from walk(v, f"{where}[{k!r}]")
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                yield from walk(v, f"{where}[{i}]")
    for name, value in vars(mod).items():
        if not name.startswith("__"):
            yield from walk(value, f"{mod.__name__}.{name}")


def test_the_box_texts_stay_within_12_columns():
    too_long = [(where, t[lang]) for where, t in box_texts() for lang in ("sv", "da")
                if len(t[lang].replace("{call}", "1NT")) > 12]
    assert too_long == []


def test_the_check_finds_a_wrong_word():
    """The checks themselves: a Swedish "kontra", a Danish dummy called "træmand" and a Swedish
    tray called "bricka" are found."""
    fake = [("fake", {"en": "Double by {seat}", "sv": "Kontra av {seat}", "da": "Dobling af {seat}"}),
            ("fake", {"en": "Dummy's cards", "sv": "Träkarlens kort", "da": "Træmandens kort"}),
            ("fake", {"en": "Wait: tray", "sv": "Vänta bricka", "da": "Vent: bakke"})]
    assert wrong(fake, "sv") == [f"fake: {WRONG['sv'][0]!r} in 'Kontra av {{seat}}'"]
    assert [m.split(": ")[1] for m in misses(fake, "sv", box=True)] == ["double", "tray"]
    assert [m.split(": ")[1] for m in misses(fake, "da", box=False)] == ["dummy"]


def test_the_glossary_doc_names_every_term():
    doc = DOC.read_text(encoding="utf-8")
    for term in TERMS:
        sv, da = term.words
        assert sv in doc and da in doc, term.name
    # each row says where the law text uses it: S07 by Law (or its definitions), D17 by §
    rows = [line for line in doc.splitlines() if line.startswith("| ") and not line.startswith("| English")]
    assert len(rows) >= 30
    for row in rows:
        cells = row.split("|")
        assert re.search(r"\bL\d|Definitioner|not in S07", cells[2]), row
        assert re.search(r"§ \d|Definitioner|not in D17", cells[3]), row



def test_the_words_no_law_text_has_are_said_to_be_unconfirmed():
    """The tray ("budbricka", "bakke") is named in none of S07 with FSB's supplements, the Swedish
    TD notes or D17, nor is the director's Danish short form "TL": each is kept and its row says
    so. The Swedish "TL" is the TD notes' (TDN17, TDN07), not S07's."""
    rows = {row.split("|")[1].strip(): row.split("|") for row in DOC.read_text(encoding="utf-8").splitlines()
            if row.startswith("| ")}
    tray, director = rows["tray (behind screens)"], rows["director, TD"]
    assert "not in S07" in tray[2] and "unconfirmed" in tray[2]
    assert "not in D17" in tray[3] and "unconfirmed" in tray[3]
    assert "TL**: not in S07" in director[2] and "TDN17" in director[2] and "TDN07" in director[2]
    assert "TL**: not in D17" in director[3] and "unconfirmed" in director[3]
