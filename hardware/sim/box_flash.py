"""The box's flash journal as the simulated boxes are read from outside: with the box's own reader.

A box keeps the calls it has not seen in the tablet's auction in a journal of 256-byte pages in
its flash (firmware/store.py; firmware/README.md "Calls kept in flash"). `hardware` may not import
`firmware` (docs/architecture.md; the box's modules import each other by their bare names), yet
the journal's layout must have one source. So the box's reader, `parse` of firmware/store.py, and
the constants it reads (PAGE, MAGIC, REC, MAX ...) are taken from that file's source and compiled
here, as the emulated boxes load the box's font from firmware/font16.py; what else the module
holds (the Store, which needs the box's other modules) is left out. `Journal.records` counts the
records with those constants as `parse` counts them, without checking each CRC (the soak polls
it). A change to the layout in the firmware is a change here; a store.py without its reader fails
at once, naming the file.
"""
from __future__ import annotations

import ast
import pathlib
import re
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORE = ROOT / "firmware" / "store.py"
_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*$")

Parse = Callable[[bytes | None], tuple[list[tuple[int, int, int]], int]]


def _kept(node: ast.stmt) -> bool:
    """What of store.py the reader needs: its constants, the `parse` function, and what it imports
    of `protocol` (the CRC), which runs the same on the box and here."""
    if isinstance(node, ast.Assign):
        return all(isinstance(t, ast.Name) and _CONSTANT.match(t.id) for t in node.targets)
    if isinstance(node, ast.FunctionDef):
        return node.name == "parse"
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "protocol"
    return False


def load(path: pathlib.Path = STORE) -> dict[str, Any]:
    """The reader and the layout constants of the box's journal, from the source at `path`:
    {"parse": ..., "PAGE": 256, ...}."""
    tree = ast.parse(path.read_text(), str(path))
    body = [node for node in tree.body if _kept(node)]
    if not any(isinstance(node, ast.FunctionDef) for node in body):
        raise RuntimeError(f"{path}: no parse(data) to read the box's flash journal with")
    names: dict[str, Any] = {"__name__": "box_flash_journal"}
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), names)
    return {k: v for k, v in names.items() if k == "parse" or _CONSTANT.match(k)}


class Journal:
    """The journal as the box at `path` lays it out and reads it."""

    def __init__(self, path: pathlib.Path = STORE) -> None:
        self.names = load(path)
        self.parse: Parse = self.names["parse"]
        self.page: int = self.names["PAGE"]
        self.magic: bytes = self.names["MAGIC"]
        self.free: int = self.names["ERASED"][0]  # the first byte of a page not yet programmed

    def records(self, data: bytes | None) -> int:
        """How many record pages a journal's bytes hold (0 for no journal), counted as `parse`
        counts them (records are programmed in order from the page after the header; the first
        free page ends them) but without checking each record's CRC: the soak polls this between
        a key press and the box keeping the call, and must not take the CPU the boxes need.
        It grows by one each time the box keeps its list of calls; a new journal (at boot, or
        idle and nearly full) starts again at one."""
        if data is None or len(data) < self.page or data[:len(self.magic)] != self.magic:
            return 0
        used = 0
        for o in range(self.page, len(data) - self.page + 1, self.page):
            if data[o] == self.free:
                break
            used += 1
        return used


JOURNAL = Journal()
