"""The seats in words: as the national bidding boxes print them (Swedish N Ö S V, Danish N Ø S V)
and in full, keyed by `shared_rules.types.Seat` (Law 17C: clockwise from North)."""
from __future__ import annotations

from shared_rules.types import Seat

from .words import Words

SEAT_LETTERS: dict[Seat, Words] = {
    Seat.N: {"en": "N", "sv": "N", "da": "N"},
    Seat.E: {"en": "E", "sv": "Ö", "da": "Ø"},
    Seat.S: {"en": "S", "sv": "S", "da": "S"},
    Seat.W: {"en": "W", "sv": "V", "da": "V"},
}

SEAT_NAMES: dict[Seat, Words] = {
    Seat.N: {"en": "North", "sv": "Nord", "da": "Nord"},
    Seat.E: {"en": "East", "sv": "Öst", "da": "Øst"},
    Seat.S: {"en": "South", "sv": "Syd", "da": "Syd"},
    Seat.W: {"en": "West", "sv": "Väst", "da": "Vest"},
}

# The board's vulnerability (a board's "None", "NS", "EW", "All"): 2007 L2 "I riskzonen", 2017 § 2
# "I farezonen" (docs/glossary.md); the sides as each language writes them (N-S, Ö-V, Ø-V).
VULNERABILITY: dict[str, Words] = {
    "None": {"en": "Love all", "sv": "Ingen i riskzonen", "da": "Ingen i farezonen"},
    "NS": {"en": "N-S vulnerable", "sv": "N-S i riskzonen", "da": "N-S i farezonen"},
    "EW": {"en": "E-W vulnerable", "sv": "Ö-V i riskzonen", "da": "Ø-V i farezonen"},
    "All": {"en": "Game all", "sv": "Alla i riskzonen", "da": "Alle i farezonen"},
}
