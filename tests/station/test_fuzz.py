"""Bad input gets a clear error and changes nothing: random documents against the record
validator and the Data Connector handler (pure functions, no HTTP)."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.scoring import score
from station import dataconnector
from station.records import RecordError, validate_item
from station.server import Station, StationConfig
from station.store import Store
from tests.hypothesis_profiles import examples

from .conftest import result_record

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20)
FIELDS = ["event", "section", "table", "round", "board", "ns_pair", "ew_pair", "dealer", "vulnerability",
          "contract", "declarer", "tricks", "lead", "score_ns", "ew_confirmed", "adjusted", "auction",
          "irregularities", "td_calls", "entered_at"]


@settings(max_examples=examples(300), deadline=None)
@given(field=st.sampled_from(FIELDS), value=json_values)
def test_any_corrupted_field_is_accepted_or_refused_with_a_record_error(field, value):
    rec = result_record()
    rec[field] = value
    try:
        validate_item("result", rec["key"], rec)
    except RecordError as e:
        assert str(e)


@settings(max_examples=examples(200), deadline=None)
@given(level=st.integers(1, 7), strain=st.sampled_from(["C", "D", "H", "S", "NT"]),
       stake=st.sampled_from(["", "X", "XX"]), decl=st.sampled_from("NESW"), tricks=st.integers(0, 13),
       vul=st.sampled_from(["None", "NS", "EW", "All"]), off=st.integers(-3, 3))
def test_2017_L77_the_station_takes_exactly_the_law_77_score(level, strain, stake, decl, tricks, vul, off):
    contract = f"{level}{strain}{stake}"
    right = score(contract, decl, tricks, vul)
    rec = result_record(contract=contract, declarer=decl, tricks=tricks, vulnerability=vul,
                        score_ns=right + 10 * off)
    if off == 0:
        validate_item("result", rec["key"], rec)
    else:
        try:
            validate_item("result", rec["key"], rec)
            raise AssertionError("a wrong score was accepted")
        except RecordError as e:
            assert "Law 77" in str(e)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(command=st.integers(-2, 45), data=json_values, session=st.sampled_from([None, "A" * 32, "x"]))
def test_data_connector_answers_every_request_with_an_envelope(tmp_path, command, data, session):
    store = Store(str(tmp_path / "dc.db"))
    try:
        station = Station(store, StationConfig(event="e", director_token="tok"))
        body = json.dumps({"Command": command, "ClubId": "c", "LicenceKey": "tok", "SessionGuid": session,
                           "SerializedData": json.dumps(data)}).encode()
        reply = dataconnector.handle(station, body)
        assert set(reply) == {"RequestCommand", "DataType", "LastQueueItemId", "ErrorType", "SessionGuid",
                              "SerializedData"}
        if reply["DataType"] == dataconnector.ERROR:
            assert json.loads(reply["SerializedData"])
        assert store.count_items() == 0
    finally:
        store.close()


def _places(doc, path=()):
    """Every (path) to a value inside a JSON document."""
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _places(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _places(v, (*path, i))


def _dc_rows(store):
    return [store.query(f"SELECT * FROM {t} ORDER BY 1, 2, 3") for t in
            ("dc_sections", "dc_rounds", "dc_handrecords", "dc_session_ids")]


@settings(max_examples=examples(150), deadline=None)
@given(where=st.integers(0, 10**6), value=json_values)
def test_a_corrupted_initialize_event_is_refused_whole_or_taken_whole(where, value):
    """One value anywhere in a scoring program's InitializeEvent replaced by random JSON: an error
    reply that changes nothing, or a movement that was checked (InitializeEvent is atomic)."""
    from .test_dataconnector import handrecord, init_dto

    store = Store(":memory:")  # the same SQL; no fsync per example
    try:
        station = Station(store, StationConfig(event="e", director_token="tok"))
        good = init_dto().to_dict()
        good["Handrecords"] = [handrecord(b).to_dict() for b in (1, 2)]

        def send(doc):
            body = json.dumps({"Command": dataconnector.INITIALIZE_EVENT, "ClubId": "c", "LicenceKey": "tok",
                               "SerializedData": json.dumps(doc)}).encode()
            return dataconnector.handle(station, body)

        assert send(good)["DataType"] == dataconnector.OK
        before = _dc_rows(store)
        bad = json.loads(json.dumps(good))
        places = list(_places(bad))[1:]
        path = places[where % len(places)]
        parent = bad
        for k in path[:-1]:
            parent = parent[k]
        parent[path[-1]] = value
        reply = send(bad)
        if reply["DataType"] == dataconnector.ERROR:
            assert _dc_rows(store) == before
        else:
            for _s, _sec, _t, _r, low, high, ns, ew in store.query("SELECT * FROM dc_rounds"):
                assert 0 <= low <= high <= 999 and high - low < 64 and 0 <= ns <= 9999 and 0 <= ew <= 9999
    finally:
        store.close()
