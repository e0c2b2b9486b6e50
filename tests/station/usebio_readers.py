"""Two independent USEBIO 1.2 readers, translated from their public source into Python with their
logic kept, so the station's files are checked the way other programs read them (not against a
schema of our own):

- cobalt, the Australian Bridge Federation's club system (repository abftech/cobalt): the upload
  `results/views/usebio.py` (parse_usebio_file with xmltodict, players_from_usebio,
  boards_from_usebio, create_player_records_from_usebio_format_pairs and ..._cross_imp) and the
  pair page `results/views/results_views.py` (_get_player_names_by_id,
  usebio_mp_pairs_details_view, _percentage_from_match_points). Its summary page reads PLACE
  with int(), which its own comment says breaks on ties ("1="), in any writer's file: left out.
- ImportUsebio, the SBU's masterpoint and stratification importer (repository
  marcshearer/ImportUsebio): `ImportUsebio/Shared/Usebio Parser.swift` (which element goes
  where), `Validation.swift` (what it refuses) and `Score Data.swift` (EventType, ScoringMethod).
  What it refuses by policy of that tool - event types it does not award (Butler pairs) and
  files of more than one section - is kept apart (`policy=True`), because real files of other
  writers fail it too. Teams: `TEAM` participants (TEAM_ID and TEAM_NAME attributes, four
  players or two pairs, `validate(team:)`) and `MATCH` elements (processMatch, processBoard,
  processTravellerLine).

Each reader raises `Rejected` (or the exception the original would die with) for a file it
cannot take, and returns what it read.
"""
from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET
from typing import Any

import xmltodict


class Rejected(Exception):
    """The reader refuses the file, with its own words."""


# -- cobalt ---------------------------------------------------------------------------------------------
def cobalt(raw: bytes) -> dict[str, Any]:
    xml = xmltodict.parse(raw)["USEBIO"]
    event = xml.get("EVENT")
    # players_from_usebio / boards_from_usebio
    pair_numbers = [player["PAIR_NUMBER"] for player in xml["EVENT"]["PARTICIPANTS"]["PAIR"]]
    hand_boards = [board["BOARD_NUMBER"] for board in xml["HANDSET"]["BOARD"]] if "HANDSET" in xml else []
    event_date_str = event.get("DATE")
    try:
        event_date = datetime.datetime.strptime(event_date_str, "%d/%m/%Y").date()
    except (ValueError, TypeError):
        try:
            event_date = datetime.datetime.strptime(event_date_str, "%d-%m-%Y").date()
        except (ValueError, TypeError):
            event_date = datetime.date.today()
    records = []
    pairs_event = event["@EVENT_TYPE"] == "PAIRS"
    for detail in event["PARTICIPANTS"]["PAIR"]:
        if pairs_event:  # create_player_records_from_usebio_format_pairs
            score: Any = detail["PERCENTAGE"]
            place = detail["PLACE"]
        else:            # create_player_records_from_usebio_format_cross_imp
            score = float(detail["TOTAL_SCORE"])
            place = int(detail["PLACE"])
        partner_names = {player["NATIONAL_ID_NUMBER"]: player["PLAYER_NAME"].title() for player in detail["PLAYER"]}
        for player in detail["PLAYER"]:
            number = player["NATIONAL_ID_NUMBER"]
            partner = next((partner_names[p][:100] for p in partner_names if p != number), "")
            if number:
                records.append({"player": number, "place": place, "score": score, "partner": partner,
                                "date": event_date, "event": event.get("EVENT_DESCRIPTION")})
    out: dict[str, Any] = {"pairs": pair_numbers, "hand_boards": hand_boards, "records": records,
                           "date": event_date, "club": xml["CLUB"]["CLUB_NAME"], "details": {}}
    if pairs_event:
        for pair_id in pair_numbers:
            out["details"][pair_id] = _cobalt_pair_detail(event, pair_id)
    return out


def _cobalt_pair_detail(usebio: dict, pair_id: str) -> list[dict]:
    """usebio_mp_pairs_details_view: the pair's boards, with the names by pair number."""
    names = {}
    for item in usebio["PARTICIPANTS"]["PAIR"]:  # _get_player_names_by_id
        player_1 = item["PLAYER"][0]["PLAYER_NAME"].title()
        player_2 = item["PLAYER"][1]["PLAYER_NAME"].title()
        names[item["PAIR_NUMBER"]] = f"{player_1} & {player_2}"
        try:
            int(item["PLAYER"][0]["NATIONAL_ID_NUMBER"]), int(item["PLAYER"][1]["NATIONAL_ID_NUMBER"])
        except TypeError:
            pass
    rows = []
    for board in usebio["BOARD"]:
        board_number = int(board.get("BOARD_NUMBER"))
        for line in board.get("TRAVELLER_LINE"):
            ns_pair, ew_pair = line.get("NS_PAIR_NUMBER"), line.get("EW_PAIR_NUMBER")
            if pair_id not in (ns_pair, ew_pair):
                continue
            ns_flag = pair_id == ns_pair
            opponents = names.get(ew_pair if ns_flag else ns_pair)
            ns_mp, ew_mp = float(line.get("NS_MATCH_POINTS")), float(line.get("EW_MATCH_POINTS"))
            score = line.get("SCORE")
            if score[0] == "A":
                score = "ADJ"
            total = ns_mp + ew_mp  # _percentage_from_match_points
            pct = (ns_mp if ns_flag else ew_mp) / total * 100.0
            rows.append({"board": board_number, "contract": line.get("CONTRACT"), "score": score,
                         "opponents": opponents, "percentage": pct})
    return sorted(rows, key=lambda d: d["board"])


# -- ImportUsebio --------------------------------------------------------------------------------------
EVENT_TYPES = ("ko", "ladder", "mp_pairs", "butler_pairs", "individual", "swiss_pairs", "swiss_teams",
               "teams_of_four", "cross_imps", "aggregate", "swiss_pairs_cross_imps", "swiss_pairs_butler_imps",
               "pairs", "teams", "head_to_head", "invalid")
SUPPORTED = ("swiss_pairs", "swiss_teams", "mp_pairs", "pairs", "cross_imps", "teams", "individual",
             "teams_of_four", "head_to_head")
PAIR_TYPES = ("mp_pairs", "butler_pairs", "swiss_pairs", "cross_imps", "aggregate", "swiss_pairs_cross_imps",
              "swiss_pairs_butler_imps", "pairs")
TEAM_TYPES = ("swiss_teams", "teams", "teams_of_four", "head_to_head")
SCORING = ("vps", "imps", "match_points", "percentage", "cross_imps", "aggregate")


def _int(text: str | None) -> int | None:
    """Swift's Int(String): digits with an optional sign, nothing else."""
    t = text or ""
    return int(t) if t.lstrip("+-").isdigit() and t[:1] != "+" else None


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text and text.strip() == text else None
    except ValueError:
        return None


def import_usebio(raw: bytes, policy: bool = True) -> dict[str, Any]:
    """Parse as UsebioParser does, then ScoreData.validate(); Rejected with its errors."""
    root = ET.fromstring(raw)
    data: dict[str, Any] = {"version": None, "clubs": [], "events": []}
    if root.tag == "USEBIO":
        data["version"] = root.get("Version")
        for child in root:
            if child.tag == "CLUB":
                data["clubs"].append({"name": child.findtext("CLUB_NAME"), "id": child.findtext("CLUB_ID_NUMBER")})
            elif child.tag == "EVENT":
                kind = (child.get("EVENT_TYPE") or "INVALID").lower()
                event: dict[str, Any] = {"type": kind if kind in EVENT_TYPES else None, "participants": [], "winner_type": 1,
                         "section_count": 1, "session_count": 1, "boards": None, "board_scoring": None}
                data["events"].append(event)
                _process_event(child, event)
    if data["events"] and data["events"][0]["board_scoring"] is None:  # finalUpdates
        first = data["events"][0]
        first["board_scoring"] = "imps" if first["type"] in ("swiss_teams", "teams", "teams_of_four",
                                                              "head_to_head") else "percentage"
    errors, warnings = _validate(data, policy)
    if errors:
        raise Rejected("; ".join(errors))
    data["warnings"] = warnings
    return data


def _process_event(el: ET.Element, event: dict) -> None:
    for child in el:
        tag, value = child.tag, child.text or ""
        if tag == "DATE":
            try:  # Utility.dateFromString(value, format: "dd/MM/yyyy")! : no date, no import
                event["date"] = datetime.datetime.strptime(value, "%d/%m/%Y").date()
            except ValueError as e:
                raise Rejected(f"DATE {value!r} is not dd/MM/yyyy (the importer stops here)") from e
        elif tag == "EVENT_DESCRIPTION":
            event["description"] = value
        elif tag == "BOARD_SCORING_METHOD":
            method = value.lower().replace(" ", "_")
            event["board_scoring"] = method if method in SCORING else None
        elif tag == "BOARDS_PLAYED":
            event["boards"] = _int(value)
        elif tag == "WINNER_TYPE":
            event["winner_type"] = _int(value) or 0
        elif tag == "SECTION_COUNT":
            event["section_count"] = _int(value) or 0
        elif tag == "SESSION_COUNT":
            event["session_count"] = _int(value) or 0
        elif tag == "MATCH_SCORING_METHOD":
            method = value.lower().replace(" ", "_")
            event["match_scoring"] = method if method in SCORING else None
        elif tag == "PARTICIPANTS":
            for pair in child:
                if pair.tag == "PAIR":
                    event["participants"].append(_pair(pair))
                elif pair.tag == "TEAM":
                    event["participants"].append(_team(pair))
        elif tag == "MATCH":
            event.setdefault("matches", []).append(_match(child))
        elif tag in ("SESSION", "SECTION"):
            _process_event(child, event)


def _pair(el: ET.Element) -> dict:
    pair: dict[str, Any] = {"type": "pair", "number": None, "players": [], "boards_played": None,
                            "direction": None, "place": None, "score": None}
    for child in el:
        tag, value = child.tag, child.text or ""
        if tag == "PAIR_NUMBER":
            pair["number"] = value
        elif tag == "PLAYER":
            pair["players"].append({"name": child.findtext("PLAYER_NAME"),
                                    "national_id": child.findtext("NATIONAL_ID_NUMBER")})
        elif tag == "BOARDS_PLAYED":
            pair["boards_played"] = _int(value)
        elif tag == "DIRECTION":
            pair["direction"] = value.lower() if value.lower() in ("ns", "ew") else None
        elif tag == "PLACE":
            pair["place"] = _int(value.replace("=", ""))
        elif tag in ("TOTAL_SCORE", "PERCENTAGE"):
            pair["score"] = _float(value)
    return pair


def _team(el: ET.Element) -> dict:
    """processParticipants / processTeam: TEAM_ID and TEAM_NAME are attributes; the team holds
    PAIRs of PLAYERs or PLAYERs directly, and PLACE / TOTAL_SCORE like a pair."""
    team: dict[str, Any] = {"type": "team", "number": el.get("TEAM_ID"), "name": el.get("TEAM_NAME"),
                            "players": [], "pairs": [], "place": None, "score": None}
    for child in el:
        tag, value = child.tag, child.text or ""
        if tag == "PAIR":
            team["pairs"].append(_pair(child))
        elif tag == "PLAYER":
            team["players"].append({"name": child.findtext("PLAYER_NAME"),
                                    "national_id": child.findtext("NATIONAL_ID_NUMBER")})
        elif tag == "PLACE":
            team["place"] = _int(value.replace("=", ""))
        elif tag in ("TOTAL_SCORE", "PERCENTAGE"):
            team["score"] = _float(value)
    return team


def _match(el: ET.Element) -> dict:
    """processMatch / processBoard / processTravellerLine: the match's teams and scores, each
    BOARD's IMPS (the first team's) and its traveller lines' pair numbers by DIRECTION."""
    match: dict[str, Any] = {"boards": [], "pair_numbers": set(), "opposing_pair_numbers": set()}
    for child in el:
        tag, value = child.tag, child.text or ""
        if tag == "ROUND_NUMBER":
            match["round"] = _int(value)
        elif tag in ("TEAM", "NS_PAIR_NUMBER"):
            match["number"] = value
        elif tag in ("OPPOSING_TEAM", "EW_PAIR_NUMBER"):
            match["opposing_number"] = value
        elif tag in ("TEAM_SCORE", "NS_SCORE"):
            match["score"] = _float(value)
        elif tag in ("OPPOSING_TEAM_SCORE", "EW_SCORE"):
            match["opposing_score"] = _float(value)
        elif tag in ("TEAM_VICTORY_POINTS", "NS_VICTORY_POINTS"):
            match["vp"] = _float(value)
        elif tag in ("OPPOSING_TEAM_VICTORY_POINTS", "EW_VICTORY_POINTS"):
            match["opposing_vp"] = _float(value)
        elif tag == "BOARD":
            for b in child:
                if b.tag == "IMPS" and _float(b.text) is not None:
                    match["boards"].append({"ns_score": _float(b.text), "ew_score": -(_float(b.text) or 0)})
                elif b.tag == "TRAVELLER_LINE":
                    direction = None
                    for c in b:
                        if c.tag == "DIRECTION":
                            direction = (c.text or "").upper()
                        elif c.tag in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
                            side = "pair_numbers" if c.tag[:2] == direction else "opposing_pair_numbers"
                            match[side].add(c.text)
    return match


def _validate(data: dict, policy: bool) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    warnings: list[str] = []
    if data["version"] is None:
        errors.append("Invalid USEBIO file")
    elif data["version"] != "1.2":
        errors.append("Only Usebio v1.2 is supported")
    if len(data["events"]) != 1:
        errors.append("File contains more than 1 event" if data["events"] else "No events found")
    if len(data["clubs"]) != 1:
        errors.append("File contains more than 1 club" if data["clubs"] else "No clubs found")
    if errors:
        return errors, warnings
    event = data["events"][0]
    if event["type"] is None:
        errors.append("No event type specified")
    elif policy and event["type"] not in SUPPORTED:
        errors.append(f"{event['type']} event type not currently supported")
    if event["board_scoring"] is None:
        errors.append("Invalid board scoring method")
    if (event["boards"] or 0) <= 0:
        errors.append("Number of boards played unspecified / zero")
    if policy and event["section_count"] != 1:
        errors.append(f"Section count is {event['section_count']}")
    if event["winner_type"] == 2 and event["type"] not in PAIR_TYPES:
        errors.append("2 winners in an incompatible event")
    if errors:
        return errors, warnings
    seen: set[str] = set()
    for p in event["participants"]:
        if p["number"] is None:
            errors.append("Participant found with no number")
        elif p["number"] in seen:
            errors.append(f"Duplicate found for pair '{p['number']}'")
        else:
            seen.add(p["number"])
        if not 0 < (p["place"] or 0) <= len(event["participants"]) // max(event["winner_type"], 1):
            errors.append(f"Invalid place ({p['place'] or 0}) for pair {p['number']}")
        if p["score"] is None:
            errors.append(f"No score for pair {p['number']}")
        wanted = "team" if event["type"] in TEAM_TYPES else "pair" if event["type"] in PAIR_TYPES else None
        if p["type"] != wanted:
            errors.append(f"Participant is {p['type']} but event requires {event['type']} participants")
        if p["type"] == "team":  # validate(team:)
            if not p["pairs"] and not p["players"]:
                errors.append(f"Team {p['number']} has no pairs or players")
            elif p["pairs"] and p["players"]:
                errors.append(f"Team {p['number']} has both pairs and players")
            elif p["pairs"] and len(p["pairs"]) < 2:
                errors.append(f"Team {p['number']} has only {len(p['pairs'])} pairs")
            elif p["players"] and len(p["players"]) < 4:
                errors.append(f"Team {p['number']} has only {len(p['players'])} players")
            continue
        if len(p["players"]) != 2:
            errors.append(f"Pair {p['number']} has {len(p['players'])} players")
        if (p["boards_played"] or 0) <= 0:
            errors.append(f"Number of boards played for pair {p['number']} unspecified / zero")
        for player in p["players"]:
            if (player["national_id"] or "") in ("", "0"):
                warnings.append(f"No national ID number for {player['name']} in pair {p['number']}")
    return errors, warnings


def read_as_others_do(raw: bytes, policy: bool = True) -> dict[str, Any]:
    """What a station file of one section must pass: both readers take it."""
    return {"cobalt": cobalt(raw), "import_usebio": import_usebio(raw, policy)}
