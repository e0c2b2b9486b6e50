"""One vocabulary for every layer that shows the engine's names: the tablet (tablet_app/i18n.py)
and the director page (station/director_texts.py) read the same words, in English, Swedish and
Danish, keyed by the engine's own enums (shared_rules.types); the station's refusals by their
codes (shared_rules/records/refusals.py).

- `words`: the shape (`Words`: language -> text), `LANGUAGES`, `say()` looking a name up;
- `engine`: irregularity kinds, decisions, timing flags, auction statuses, rulings;
- `seats`: the seats' letters and names, the board's vulnerability;
- `refusals`: the station's refusals, by code, with their fields.

Swedish follows the Swedish federation's 2007 law text (FSB), Danish the Danish federation's 2017
one (DBf): "bud"/"melding", "tävlingsledare"/"turneringsleder". Pure data, no I/O: the layers
above choose the language.
"""
from .engine import AUCTION_STATUSES, DECISIONS, IRREGULARITIES, RULINGS, TIMING_FLAGS
from .refusals import REFUSALS, refusal_text
from .seats import SEAT_LETTERS, SEAT_NAMES, VULNERABILITY
from .words import DEFAULT, LANGUAGES, Words, in_lang, member, say

__all__ = ["AUCTION_STATUSES", "DECISIONS", "DEFAULT", "IRREGULARITIES", "LANGUAGES", "REFUSALS", "RULINGS",
           "SEAT_LETTERS", "SEAT_NAMES", "TIMING_FLAGS", "VULNERABILITY", "Words", "in_lang", "member", "refusal_text",
           "say"]
