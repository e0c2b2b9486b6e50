"""Helpers for the live feed's tests: a spectator on the push stream (server-sent events read as a
browser's EventSource does), hand records for the scoring program, and auctions played on real
tablet controllers with alerts."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time

from bridgemate_dataconnector.dto import HandrecordDTO

SEATS = "NESW"
HANDS = (("AK4", "K32", "Q432", "KJ2"), ("QJ98", "AQJ", "K65", "A43"), ("T76", "T9876", "A", "Q765"),
         ("532", "54", "JT987", "T98"))


def deal_of(board: int) -> dict[str, tuple[str, ...]]:
    """Board n's deal: the four hands dealt round the table from a seat that moves with n."""
    return {SEATS[(i + board) % 4]: HANDS[i] for i in range(4)}


def pbn_deal(board: int) -> str:
    d = deal_of(board)
    return "N:" + " ".join(".".join(d[s]) for s in SEATS)


def handrecords(session: str, boards: range, section: str = "A") -> list[HandrecordDTO]:
    out = []
    for b in boards:
        h = HandrecordDTO(session_guid=session, scoring_group_number=1, section_letters=section, board_number=b)
        for seat, name in zip(SEATS, ("north", "east", "south", "west"), strict=True):
            for suit, cards in zip(("spades", "hearts", "diamonds", "clubs"), deal_of(b)[seat], strict=True):
                setattr(h, f"{name}_{suit}", cards)
        out.append(h)
    return out


class Spectator:
    """One browser on `/live/stream` (or a path given), in a thread: every event with the wall
    time it arrived. Reconnects with Last-Event-ID as EventSource does when the stream ends."""

    def __init__(self, port: int, path: str = "/live/stream", host: str = "127.0.0.1"):
        self.port, self.path, self.host = port, path, host
        self.events: list[tuple[float, str, dict]] = []
        self.last_id: str | None = None
        self.headers: dict[str, str] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._conn: http.client.HTTPConnection | None = None
        # the stream's socket, kept apart: http.client hands a response that ends the connection
        # its socket and sets the connection's to None, so stop() could not reach it and waited
        # out its join (10 s a test)
        self._sock: socket.socket | None = None

    def start(self) -> Spectator:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._thread.join(10)
        assert not self._thread.is_alive(), "the spectator's reader did not stop"

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._read_once()
            except (OSError, http.client.HTTPException, ValueError):
                if self._stop.is_set():
                    return
            self._stop.wait(0.2)

    def _read_once(self) -> None:
        self._conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if self.last_id is not None:
            headers["Last-Event-ID"] = self.last_id
        self._conn.connect()
        self._sock = self._conn.sock
        if self._stop.is_set():
            return
        self._conn.request("GET", self.path, headers=headers)
        resp = self._conn.getresponse()
        self.headers = {k.lower(): v for k, v in resp.getheaders()}
        if resp.status != 200:
            raise ValueError(f"stream answered {resp.status}")
        kind: str | None = None
        data: list[str] = []
        ident: str | None = None
        while not self._stop.is_set():
            line = resp.fp.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text == "":
                if kind and data:
                    with self._lock:
                        self.events.append((time.time(), kind, json.loads("\n".join(data))))
                if ident is not None:
                    self.last_id = ident
                kind, data, ident = None, [], None
            elif text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("data: "):
                data.append(text[6:])
            elif text.startswith("id: "):
                ident = text[4:]

    def boards(self) -> list[tuple[float, dict]]:
        """(arrival, view) of every board event so far."""
        with self._lock:
            return [(t, doc["view"]) for t, kind, doc in self.events if kind == "board"]

    def connected(self, timeout: float = 60.0) -> Spectator:
        """Until the stream has answered with its snapshot: from then on every event reaches this
        spectator. Before that, a spectator who connects late is given only each table's latest
        board (as a browser opening the page then is), not the changes that led to it."""
        self.wait(lambda s: any(kind == "snapshot" for _, kind, _ in s.events), timeout, what="the snapshot")
        return self

    def wait(self, condition, timeout: float = 60.0, what: str = "the stream") -> None:
        """Until `condition(self)` holds; a hang guard, not a speed assert."""
        deadline = time.monotonic() + timeout
        while not condition(self):
            assert time.monotonic() < deadline, f"{what}: not seen within {timeout} s ({self.events[-3:]})"
            time.sleep(0.05)


def calls_of(spectator: Spectator, table: str, board: int) -> list[tuple[float, list[dict]]]:
    """(arrival, calls shown) of each event of one board at one table."""
    return [(t, v["calls"]) for t, v in spectator.boards() if v["table"] == table and v["board"] == board]


def auction(board: int, contract: str, alert_first: bool = False) -> list[tuple[str, str, bool]]:
    """(seat, call, alerted) from the dealer: the dealer opens `contract` (doubled by the next
    hand when it ends in X), everyone else passes."""
    seat = SEATS[(board - 1) % 4]
    calls = [contract.replace("X", "")] + (["X"] if contract.endswith("X") else []) + ["P", "P", "P"]
    out = []
    for i, c in enumerate(calls):
        out.append((seat, c, alert_first and i == 0))
        seat = SEATS[(SEATS.index(seat) + 1) % 4]
    return out


def play_auction(ctl, board: int, contract: str, alert_first: bool = False,
                 on_call=None) -> list[tuple[str, str, bool]]:
    """Bid the auction on the controller's boxes; an alert on the opening bid by the opener's
    partner (the regulations of dbf-2017: the partner alerts). `on_call(i, seat, call)` after each."""
    ctl.choose_board(board)
    made = auction(board, contract, alert_first)
    for i, (seat, call, alerted) in enumerate(made):
        r = ctl.box_event(seat, "call", call=call)
        assert r["ok"], (board, seat, call, r)
        if alerted:
            partner = SEATS[(SEATS.index(seat) + 2) % 4]
            r = ctl.box_event(partner, "alert")
            assert r["ok"], ("alert", r)
        if on_call is not None:
            on_call(i, seat, call)
    return made
