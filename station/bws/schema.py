"""The tables and columns of a Bridgemate `.bws` file that the bridge reads and writes, as data.

A `.bws` is a Microsoft Access (Jet) database that the scoring program (Ruter, Magic Contest)
creates and Bridgemate Control Software (BCS) fills. Column names and types are those found in
open-source programs that read and write real files (docs/bws.md lists them). `REQUIRED` is what
the bridge needs to be present; a file without it is refused with the list of what is missing,
and nothing is written into it.

`ddl(dialect)` builds the same tables for Access (what a scoring program creates) and for SQLite
(what the tests use through the SQLite ODBC driver), with the Access types mapped.
"""
from __future__ import annotations

# (column, Access type). AUTO = AutoNumber, INT = Integer (16 bit), LONG = Long Integer,
# TEXT(n), BIT = Yes/No, DATETIME = Date/Time.
TABLES: dict[str, list[tuple[str, str]]] = {
    "Session": [("ID", "INT"), ("Name", "TEXT(20)"), ("Date", "DATETIME"), ("Time", "DATETIME"),
                ("GUID", "TEXT(40)"), ("Status", "INT")],
    "Section": [("ID", "INT"), ("Letter", "TEXT(2)"), ("Tables", "INT"), ("MissingPair", "INT"),
                ("Winners", "LONG")],
    "Tables": [("Section", "INT"), ("Table", "INT"), ("ComputerID", "INT"), ("Status", "INT"),
               ("LogOnOff", "INT"), ("CurrentRound", "INT"), ("CurrentBoard", "INT"),
               ("UpdateFromRound", "INT"), ("Group", "INT")],
    "RoundData": [("Section", "INT"), ("Table", "INT"), ("Round", "INT"), ("NSPair", "INT"),
                  ("EWPair", "INT"), ("LowBoard", "INT"), ("HighBoard", "INT"),
                  ("CustomBoards", "TEXT(127)")],
    "ReceivedData": [("ID", "AUTO"), ("Section", "INT"), ("Table", "INT"), ("Round", "INT"),
                     ("Board", "INT"), ("PairNS", "INT"), ("PairEW", "INT"), ("Declarer", "INT"),
                     ("NS/EW", "TEXT(2)"), ("Contract", "TEXT(10)"), ("Result", "TEXT(10)"),
                     ("LeadCard", "TEXT(10)"), ("Remarks", "TEXT(255)"), ("DateLog", "DATETIME"),
                     ("TimeLog", "DATETIME"), ("Processed", "BIT"), ("Processed1", "BIT"),
                     ("Processed2", "BIT"), ("Processed3", "BIT"), ("Processed4", "BIT"),
                     ("Erased", "BIT")],
    "BiddingData": [("ID", "AUTO"), ("Section", "INT"), ("Table", "INT"), ("Round", "INT"),
                    ("Board", "INT"), ("Counter", "INT"), ("Direction", "TEXT(2)"), ("Bid", "TEXT(10)"),
                    ("DateLog", "DATETIME"), ("TimeLog", "DATETIME"), ("Erased", "BIT")],
    "PlayData": [("ID", "AUTO"), ("Section", "INT"), ("Table", "INT"), ("Round", "INT"),
                 ("Board", "INT"), ("Counter", "INT"), ("Direction", "TEXT(2)"), ("Card", "TEXT(10)"),
                 ("DateLog", "DATETIME"), ("TimeLog", "DATETIME"), ("Erased", "BIT")],
    "PlayerNumbers": [("Section", "INT"), ("Table", "INT"), ("Direction", "TEXT(2)"),
                      ("Number", "TEXT(16)"), ("Name", "TEXT(18)"), ("Round", "INT"),
                      ("Processed", "BIT"), ("Updated", "BIT"), ("TimeLog", "DATETIME")],
    "PlayerNames": [("ID", "LONG"), ("Name", "TEXT(18)"), ("strID", "TEXT(18)")],
    "Settings": [("Section", "INT"), ("ShowResults", "BIT"), ("ShowOwnResult", "BIT"), ("ShowPercentage", "BIT"),
                 ("LeadCard", "BIT"), ("BM2ValidateLeadCard", "BIT"), ("BM2ScoreRecap", "BIT"),
                 ("BM2NextSeatings", "BIT"), ("BM2ResultsOverview", "INT"), ("BM2ViewHandrecord", "BIT"),
                 ("BM2TDCall", "BIT"), ("BM2RecordBidding", "BIT"), ("BM2RecordPlay", "BIT"),
                 ("BM2PINcode", "TEXT(4)")],
    "HandRecord": [("Section", "INT"), ("Board", "INT")] + [
        (f"{seat}{suit}", "TEXT(13)") for seat in ("North", "East", "South", "West")
        for suit in ("Spades", "Hearts", "Diamonds", "Clubs")],
}

# What the bridge cannot work without. Settings, players, hand records, Tables' status columns
# and PlayData are used when present.
REQUIRED: dict[str, tuple[str, ...]] = {
    "Section": ("ID", "Letter"),
    "Tables": ("Section", "Table"),
    "RoundData": ("Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard"),
    "ReceivedData": tuple(c for c, _ in TABLES["ReceivedData"] if c != "ID"),
    "BiddingData": tuple(c for c, _ in TABLES["BiddingData"] if c != "ID"),
}

_TYPES = {
    "access": {"AUTO": "COUNTER", "INT": "SHORT", "LONG": "LONG", "BIT": "BIT", "DATETIME": "DATETIME",
               "TEXT": "TEXT({n})"},
    "sqlite": {"AUTO": "INTEGER PRIMARY KEY AUTOINCREMENT", "INT": "SMALLINT", "LONG": "INTEGER",
               "BIT": "BIT", "DATETIME": "DATETIME", "TEXT": "VARCHAR({n})"},
}


def name(identifier: str) -> str:
    """A table or column name quoted for both dialects: [Table], [NS/EW] (Access's brackets,
    which SQLite also accepts)."""
    if "]" in identifier:
        raise ValueError(f"bad identifier {identifier!r}")
    return f"[{identifier}]"


def column_type(access_type: str, dialect: str) -> str:
    types = _TYPES[dialect]
    if access_type.startswith("TEXT("):
        return types["TEXT"].format(n=access_type[5:-1])
    return types[access_type]


def ddl(dialect: str, tables: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
    """CREATE TABLE statements for `dialect` ("access" or "sqlite")."""
    out = []
    for table, cols in (tables or TABLES).items():
        body = ", ".join(f"{name(c)} {column_type(t, dialect)}" for c, t in cols)
        out.append(f"CREATE TABLE {name(table)} ({body})")
    return out


def missing(present: dict[str, set[str]]) -> list[str]:
    """`present`: table name (any case) -> its column names. Returns what REQUIRED lacks, as
    `Table` or `Table.Column` strings (empty when the file can be used)."""
    lower = {t.lower(): {c.lower() for c in cols} for t, cols in present.items()}
    out = []
    for table, cols in REQUIRED.items():
        have = lower.get(table.lower())
        if have is None:
            out.append(table)
            continue
        out.extend(f"{table}.{c}" for c in cols if c.lower() not in have)
    return out
