"""Item keys (shared_rules/records/keys.py): each kind formats its key and reads it back, and a
malformed key is refused with an error that says what is wrong."""
import ast
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_rules.records import (
    AuctionEventKey,
    AuctionKey,
    PlayersKey,
    RecordError,
    ResultKey,
    RoundKey,
    TableId,
    TableTdCallKey,
    TdCallKey,
    TdCallSeries,
    parse_key,
    td_call_launch,
)

TID = TableId("club-2026-11-22", "A", 3)

events = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True)
table_ids = st.builds(TableId, events, st.sampled_from(["A", "B", "Z", "AA", "CCC"]), st.integers(1, 999))
statuses = st.sampled_from(["launched", "in_progress", "resolved", "deferred"])
keys = st.one_of(
    st.builds(ResultKey, table_ids, st.integers(1, 99), st.integers(1, 999), st.integers(1, 50)),
    st.builds(AuctionKey, table_ids, st.integers(0, 99), st.integers(1, 999), st.integers(1, 10**6)),
    st.builds(AuctionEventKey, table_ids, st.integers(0, 99), st.integers(1, 999), st.integers(1, 2**53)),
    st.builds(RoundKey, table_ids, st.integers(1, 99)),
    st.builds(PlayersKey, table_ids, st.integers(1, 99), st.integers(1, 999)),
    st.builds(TdCallKey, table_ids, st.integers(0, 99), st.none() | st.integers(1, 999), st.integers(0, 10**6),
              st.sampled_from(list(TdCallSeries)), st.none() | statuses),
    st.builds(TableTdCallKey, table_ids, st.integers(0, 9999), statuses))


@given(keys)
def test_every_key_reads_back_as_itself(key):
    text = key.format()
    assert type(key).parse(text) == key
    kind = {ResultKey: "result", AuctionKey: "auction", AuctionEventKey: "auction_event", RoundKey: "round",
            PlayersKey: "players", TdCallKey: "td_call", TableTdCallKey: "td_call"}[type(key)]
    assert parse_key(kind, text) == key


def test_the_wire_forms():
    assert ResultKey(TID, 2, 5, 1).format() == "club-2026-11-22/A/3/2/5/1"
    assert ResultKey(TID, 2, 5, 1).next_revision().format() == "club-2026-11-22/A/3/2/5/2"
    assert AuctionKey(TID, 2, 5, 4).format() == "club-2026-11-22/A/3/2/5/auction/4"
    assert AuctionEventKey(TID, 2, 5, 812).format() == "club-2026-11-22/A/3/2/5/event/812"
    assert RoundKey(TID, 2).format() == "club-2026-11-22/A/3/round/2"
    assert PlayersKey(TID, 2, 1).format() == "club-2026-11-22/A/3/2/players/1"
    launch = TdCallKey(TID, 2, 5, 1)
    assert launch.format() == "club-2026-11-22/A/3/2/5/td/1"
    assert launch.with_status("resolved").format() == "club-2026-11-22/A/3/2/5/td/1/resolved"
    # a call between boards: `None` in the key, as the tablet has always written it
    assert TdCallKey.parse("club-2026-11-22/A/3/2/None/td/1").board is None
    storage = TdCallKey(TID, 1, 1, 17, TdCallSeries.STORAGE)
    assert storage.format() == "club-2026-11-22/A/3/1/1/storage/17"
    assert TableTdCallKey(TID, 4, "in_progress").format() == "club-2026-11-22/A/3/td/4/in_progress"
    assert TableId.parse("club-2026-11-22/A/3") == TID


def test_a_td_call_is_named_by_its_launch_whatever_its_status():
    assert td_call_launch("club-2026-11-22/A/3/2/5/td/1/resolved") == "club-2026-11-22/A/3/2/5/td/1"
    assert td_call_launch("club-2026-11-22/A/3/2/5/td/1") == "club-2026-11-22/A/3/2/5/td/1"
    assert td_call_launch("club-2026-11-22/A/3/1/1/storage/17/resolved") == "club-2026-11-22/A/3/1/1/storage/17"
    assert td_call_launch("club-2026-11-22/A/3/td/4/deferred") == "club-2026-11-22/A/3/td/4"


@pytest.mark.parametrize("cls, text, says", [
    (ResultKey, "club-2026-11-22/A/3/2/5", "expected <event>/<section>/<table>/<round>/<board>/<revision>"),
    (ResultKey, "club-2026-11-22/A/3/2/5/0", "the revision must be a whole number from 1 up, not '0'"),
    (ResultKey, "club-2026-11-22/A/3/2/5/01", "the revision must be a whole number from 1 up, not '01'"),
    (ResultKey, "club-2026-11-22/A/3/2/x/1", "the board must be a whole number from 1 up, not 'x'"),
    (ResultKey, "club-2026-11-22/A/3/2/5/\u00b2", "the revision must be a whole number"),
    (ResultKey, "club 22/A/3/2/5/1", "the event must be letters, digits"),
    (ResultKey, "club/a/3/2/5/1", "the section must be 1 to 3 capital letters, not 'a'"),
    (ResultKey, "club/A/0/2/5/1", "the table must be a whole number from 1 up, not '0'"),
    (ResultKey, "club/A/3/td/4/resolved", "not a TD call's key"),
    (ResultKey, "", "expected a non-empty string"),
    (ResultKey, None, "expected a non-empty string"),
    (AuctionKey, "club/A/3/2/5/bidding/1", "expected <event>/<section>/<table>/<round>/<board>/auction/<seq>"),
    (AuctionKey, "club/A/3/2/5/auction/0", "the sequence number must be a whole number from 1 up"),
    (AuctionKey, "club/A/3/x/5/auction/1", "the round must be a whole number from 0 up, not 'x'"),
    (AuctionKey, "club 22/A/3/2/5/bidding/1", "expected <event>/<section>/<table>/<round>/<board>/auction/<seq>"),
    (AuctionKey, "club/A/3/2/5/auction", "expected <event>/<section>/<table>/<round>/<board>/auction/<seq>"),
    (AuctionEventKey, "club/A/3/2/5/auction/1", "expected <event>/<section>/<table>/<round>/<board>/event/<n>"),
    (AuctionEventKey, "club/A/3/2/0/event/1", "the board must be a whole number from 1 up, not '0'"),
    (AuctionEventKey, "club/A/3/2/5/event/0", "the record number must be a whole number from 1 up, not '0'"),
    (AuctionEventKey, "club 22/A/3/2/5/event/1", "the event must be letters, digits"),
    (RoundKey, "club/A/3/rounds/2", "expected <event>/<section>/<table>/round/<round>"),
    (RoundKey, "club/A/3/round/0", "the round must be a whole number from 1 up, not '0'"),
    (RoundKey, "club/a/3/rounds/2", "expected <event>/<section>/<table>/round/<round>"),
    (RoundKey, "club/a/3/round/2", "the section must be 1 to 3 capital letters, not 'a'"),
    (PlayersKey, "club/A/3/2/player/1", "expected <event>/<section>/<table>/<round>/players/<entry>"),
    (PlayersKey, "club/A/3/0/players/1", "the round must be a whole number from 1 up, not '0'"),
    (PlayersKey, "club/A/3/2/players/x", "the entry must be a whole number from 1 up, not 'x'"),
    (PlayersKey, "club/A/3/2/players", "expected <event>/<section>/<table>/<round>/players/<entry>"),
    (TdCallKey, "club/A/3/2/5/td", "expected <event>/<section>/<table>/<round>/<board>/td/<n>"),
    (TdCallKey, "club/A/3/2/5/call/1", "storage/<n> in place of td/<n>"),
    (TdCallKey, "club/A/3/2/5/td/1/done", "the status must be one of launched, in_progress, resolved, deferred"),
    (TdCallKey, "club/A/3/2/none/td/1", "the board must be a whole number from 1 up, not 'none'"),
    (TableTdCallKey, "club/A/3/td/4", "expected <event>/<section>/<table>/td/<call>/<status>"),
    (TableTdCallKey, "club/A/3/td/x/resolved", "the call's number must be a whole number"),
    (TableTdCallKey, "club/A/3/td/4/gone", "the status must be one of"),
    (TableId, "club/A", "expected <event>/<section>/<table>"),
])
def test_a_malformed_key_is_refused_saying_why(cls, text, says):
    with pytest.raises(RecordError) as e:
        cls.parse(text)
    assert says in str(e.value)


def test_a_status_the_contract_does_not_have_is_refused():
    with pytest.raises(RecordError, match="status: expected one of"):
        TdCallKey(TID, 2, 5, 1).with_status("finished")
    with pytest.raises(RecordError, match="^kind"):
        parse_key("gossip", "club/A/3/2/5/1")


def test_the_records_package_imports_nothing_of_the_project_but_shared_rules():
    """docs/architecture.md: shared_rules imports nothing of the project (the station may import
    it, the tablet too)."""
    root = pathlib.Path(__file__).resolve().parents[2] / "shared_rules" / "records"
    project = {"tablet_app", "station", "protocol", "firmware", "hardware", "tests", "bench", "scripts"}
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                assert name.split(".")[0] not in project, f"{path.name} imports {name}"
