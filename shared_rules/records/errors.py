"""The one error of the records package: an item, a key or a value that breaks the contract."""
from __future__ import annotations

from .refusals import Refused


class RecordError(ValueError):
    """The item is malformed; the message says which field and why (the station answers it to
    the tablet as is: docs/station.md, "Checked at the door"). `refusal`: where the check has
    words of its own in every language (refusals.Refused), the code and values the station sends
    beside the message; None: the message is the detail of a `record.invalid` refusal."""

    def __init__(self, message: str, refusal: Refused | None = None):
        super().__init__(message)
        self.refusal = refusal
