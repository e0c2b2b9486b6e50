"""The contracts between the table tablet and the results station, defined once.

Every item a tablet queues for the station, and the station's check of it at its door:

- `keys`: the item key of each kind (`ResultKey`, `AuctionKey`, `TdCallKey`, `TableTdCallKey`)
  and the table id (`TableId`), with `format()` and `parse()`;
- `result`: the result record (`Result`) and the withdrawal of one (`Withdrawal`);
- `progress`: the auction-progress item (`AuctionProgress`);
- `auction_event`: one item per call, alert, stop, tray pass, director call or ruling, as it
  happens (`AuctionEvent`), for the live feed;
- `td_call`: the TD-call item (`TdCall`);
- `round_start`: the table moved to a round (`RoundStart`), which opens that round's results at
  the station;
- `players`: the player numbers entered at a table (`PlayerNumbers`, `check_number`);
- `auction_log`: the calls and irregularities those carry (`LoggedCall`, `Irregularity`);
- `item`: `read_item(kind, key, payload)`, the station's check, every rule in one place;
- `refusals`: the station's refusals by code (`RefusalCode`, `Refused`), the tablet shows them in
  its language from the code.

Each record has `to_json()` (the tablet's form, byte for byte what it always sent) and
`from_json()` (the station's check; RecordError naming the field). Pure Python, no I/O; imports
nothing of the project but `shared_rules.scoring` (the Law 77 score a result must carry) and
`shared_rules.types` (the seat and vulnerability names, defined once).
docs/interfaces.md sections 3 and 4 describe the contract and point here.
"""
from .auction_event import WHATS, AuctionEvent, What
from .auction_log import Irregularity, LoggedCall, auction_dealer, logged_calls
from .errors import RecordError
from .fields import as_iso, iso_utc
from .item import KINDS, Item, Where, read_item, to_item, where
from .keys import (
    TD_STATUSES,
    AuctionEventKey,
    AuctionKey,
    ItemKey,
    ItemKind,
    PlayersKey,
    ResultKey,
    RoundKey,
    TableId,
    TableTdCallKey,
    TdCallKey,
    TdCallSeries,
    parse_key,
    td_call_launch,
)
from .players import PLAYER_NUMBER_RE, PlayerNumbers, check_number
from .progress import PHASES, AuctionProgress, Phase
from .refusals import FIELDS as REFUSAL_FIELDS
from .refusals import RefusalCode, Refused
from .result import Result, Withdrawal
from .round_start import RoundStart, StartedBy
from .td_call import STORAGE_FULL, TdCall

__all__ = [
    "KINDS", "PHASES", "STORAGE_FULL", "TD_STATUSES", "WHATS", "AuctionEvent", "AuctionEventKey", "AuctionKey", "AuctionProgress", "Irregularity", "Item",
    "ItemKey", "ItemKind", "LoggedCall", "Phase", "RecordError", "Result", "ResultKey", "RoundKey", "RoundStart", "StartedBy", "TableId",
    "TableTdCallKey", "TdCall", "TdCallKey", "TdCallSeries", "What", "Where", "Withdrawal", "as_iso", "auction_dealer",
    "iso_utc",
    "logged_calls", "parse_key", "read_item", "td_call_launch", "to_item", "where",
    "PLAYER_NUMBER_RE", "PlayerNumbers", "PlayersKey", "check_number",
    "REFUSAL_FIELDS", "RefusalCode", "Refused",
]
