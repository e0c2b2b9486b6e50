"""What every table of the vocabulary holds: words by language, and how a name is looked up."""
from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final, TypeVar

# The languages every name is given in: the Swedish and Danish federations' and English.
LANGUAGES: Final = ("en", "sv", "da")
DEFAULT: Final = "en"

Words = dict[str, str]  # language -> words

E = TypeVar("E", bound=Enum)


def member(enum: type[E], value: object) -> E | None:
    """The member `value` names (the member itself, or its value as a state or item carries it),
    None for anything the enum does not name (a newer engine's, or garbage)."""
    if isinstance(value, enum):
        return value
    try:
        return enum(value)
    except (ValueError, TypeError):
        return None


def in_lang(words: Words, lang: str) -> str:
    """The words in `lang`, English where they have none in it (or `lang` is not one of ours)."""
    return words.get(lang) or words[DEFAULT]


def say(table: Mapping[E, Words], enum: type[E], value: object, lang: str) -> str | None:
    """`value`'s words in `lang` (English when the language is not one of ours), None when the
    table has no words for it."""
    key = member(enum, value)
    found = table.get(key) if key is not None else None
    if found is None:
        return None
    return in_lang(found, lang)
