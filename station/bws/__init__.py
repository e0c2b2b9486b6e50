"""The `.bws` bridge: Swedish and Danish clubs score with Ruter or Magic Contest, which talk to
Bridgemate Control Software through a shared Access file (the `.bws`). With
`python -m station --bws PATH` the station takes BCS's place: it serves the session in the file
to the tablets and writes their results and auctions back into it (docs/bws.md).

Modules: schema (tables and columns), odbc (the connection), formats (values as BCS writes
them), boardlog (what each item adds), session (read and install the movement), fileid (which
file the path names), takeover (a replaced file taken over), bridge (the thread), status (the
director page's line and /api/v1/health's part).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bridge import Bridge
    from .odbc import BwsError, BwsLocked

__all__ = ["Bridge", "BwsError", "BwsLocked"]


def __getattr__(name: str) -> Any:
    """The bridge and its modules are imported when asked for (`python -m station --bws`), not
    with the status line every station imports at its start."""
    if name == "Bridge":
        from .bridge import Bridge
        return Bridge
    if name in ("BwsError", "BwsLocked"):
        from . import odbc
        return getattr(odbc, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
