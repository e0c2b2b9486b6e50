"""The one error of the records package: an item, a key or a value that breaks the contract."""
from __future__ import annotations


class RecordError(ValueError):
    """The item is malformed; the message says which field and why (the station answers it to
    the tablet as is: docs/station.md, "Checked at the door")."""
