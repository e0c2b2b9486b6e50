"""The spectators' page (`GET /live/`): for the venue's screen and spectators' browsers.

One page: the state as it stands is in the page itself (a JSON block, never executed), the script
(`/live/page.js`, the only script: the page's Content-Security-Policy allows that file and
nothing inline) draws it, then follows the push stream (`/live/stream`, or with `?poll=1` the
cacheable long poll `/live/poll`, for a page served through a cache or CDN) and redraws a table's
board at each event. Per table: the players, the board, dealer and vulnerability, the room of a
team match, the auction as it is shown (alerted calls marked, with the explanation where it may
be shown), the irregularities with their Law and ruling, the contract; once the board is over at
every table that plays it, the result and the deal. Every word of the page is in its language
(`?lang=sv` or `da`, else English): the events carry names, the page's state block its words. Above the tables, the matches' scores (a
walk-over as its VPs, no board played: FSB L109A) and each session's byes with their VPs (FSB 96B).
"""
from __future__ import annotations

import html
import json

from shared_rules.vocabulary.words import DEFAULT

from .live_texts import texts

PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live: {title}</title><link rel="stylesheet" href="/live/page.css"></head>
<body data-poll="{poll}"><header><h1>{title}</h1><p id="note">{note}</p></header>
<section id="matches"></section><main id="tables"></main>
<script type="application/json" id="state">{state}</script>
<script src="/live/page.js"></script></body></html>"""

CSS = """body{font-family:sans-serif;margin:0;background:#0b3d20;color:#fff}
header{padding:.5em 1em}h1{margin:0;font-size:1.6em}#note{margin:.2em 0;opacity:.8}
#matches{padding:0 1em}.match,.bye{font-size:1.3em;margin:.2em 0}
#tables{display:flex;flex-wrap:wrap;gap:1em;padding:1em}
.table{background:#fff;color:#000;border-radius:.5em;padding:.6em;min-width:18em}
.table h2{margin:0 0 .3em;font-size:1.1em}.players{font-size:.85em;margin-bottom:.3em}
.auction{border-collapse:collapse}.auction td,.auction th{padding:.1em .5em;text-align:center;min-width:2.5em}
.alert{background:#ffe08a}.irregularity{color:#b00000;font-size:.85em}.contract{font-weight:bold;margin-top:.3em}
.deal{font-family:monospace;font-size:.85em}.red{color:#c00000}"""

SCRIPT = r"""(function () {
  "use strict";
  var SEATS = ["W", "N", "E", "S"];
  var SUIT = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var boards = {}, matches = {}, byes = {}, seq = 0, T = {};
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  // the page's words in its language (station/live_texts.py, station/live_card_texts.py), `{name}`
  // filled from `f`; the events carry only the engine's names (seats, kinds, rulings, statuses)
  function fill(text, f) {
    return text.replace(/\{(\w+)\}/g, function (all, k) { return f[k] === undefined ? all : String(f[k]); });
  }
  function team(n) { return fill(T.team, {n: n}); }
  function said(table, key) { return table[key] === undefined ? String(key).replace(/_/g, " ") : table[key]; }
  function seatName(s) { return said(T.seat_names, s); }
  function callText(c) {
    if (c === "P" || c === "PASS") { return T.pass; }
    if (c === "X" || c === "XX") { return c; }
    var s = c.slice(1);
    return c[0] + (s === "NT" ? T.nt : SUIT[s] || s);
  }
  function player(v, s) {
    if (v.names && v.names[s]) { return v.names[s]; }
    if (v.pairs) { return fill(T.pair, {seat: seatName(s), n: v.pairs[s === "N" || s === "S" ? "NS" : "EW"]}); }
    return v.names ? seatName(s) : v.players[s];  // an older event: the players as it named them
  }
  function heading(v) {
    var f = {table: v.table, board: v.board};
    if (!v.room) { return fill(T.heading, f); }
    f.room = said(T, "room_" + v.room);
    f.match = v.teams ? fill(T.match, {home: team(v.teams[0]), away: team(v.teams[1])}) : v.match;
    return fill(T.heading_match, f);
  }
  function drawAuction(card, v) {
    var t = el("table", "auction"), head = el("tr");
    SEATS.forEach(function (s) { head.appendChild(el("th", null, T.seat_letters[s])); });
    t.appendChild(head);
    var row = el("tr"), col = SEATS.indexOf(v.dealer);
    for (var i = 0; i < col; i++) { row.appendChild(el("td")); }
    v.calls.forEach(function (c) {
      if (col === 4) { t.appendChild(row); row = el("tr"); col = 0; }
      var td = el("td", "call" + (c.alerted ? " alert" : ""), callText(c.call) + (c.alerted ? "*" : ""));
      td.setAttribute("data-seat", c.seat);
      if (c.alerted) { td.title = T.alerted + (c.explanation ? ": " + c.explanation : ""); }
      row.appendChild(td);
      col++;
    });
    t.appendChild(row);
    card.appendChild(t);
    v.calls.forEach(function (c) {
      if (c.alerted && c.explanation) {
        card.appendChild(el("div", "explanation", callText(c.call) + "* " + c.explanation));
      }
    });
  }
  // a PBN deal ("N:AKQ.JT9.876.5432 ...", spades first) as the seats' hands, the suits as symbols
  // and the ranks as the language writes them (Swedish and Danish E K D Kn for A K Q J)
  function dealText(pbn) {
    var m = /^([NESW]):(.*)$/.exec(pbn), order = ["N", "E", "S", "W"];
    if (!m) { return pbn; }
    var first = order.indexOf(m[1]);
    return m[2].split(" ").map(function (hand, i) {
      var suits = hand.split(".");
      return T.seat_letters[order[(first + i) % 4]] + ": " + ["S", "H", "D", "C"].map(function (s, j) {
        return SUIT[s] + (suits[j] || "-").replace(/[AKQJ]/g, function (r) { return T.ranks[r] || r; });
      }).join(" ");
    }).join("; ");
  }
  function drawTable(v) {
    var card = el("article", "table");
    card.id = "table-" + v.table;
    card.appendChild(el("h2", null, heading(v)));
    card.appendChild(el("div", "facts", fill(T.dealer, {seat: seatName(v.dealer)}) + ", " +
      said(T.vulnerability, v.vulnerability)));
    card.appendChild(el("div", "players", ["N", "E", "S", "W"].map(function (s) {
      return T.seat_letters[s] + ": " + player(v, s); }).join(", ")));
    drawAuction(card, v);
    v.irregularities.forEach(function (x) {
      card.appendChild(el("div", "irregularity", fill(T.irregularity, {what: said(T.kinds, x.kind || "")}) +
        (x.seat ? fill(T.by, {seat: seatName(x.seat)}) : "") + (x.call ? " (" + callText(x.call) + ")" : "") +
        (x.resolution ? ", " + said(T.rulings, x.resolution) : "") + (x.law ? " [" + x.law + "]" : "")));
    });
    if (v.status && v.status !== "passed_out") {
      card.appendChild(el("div", "status", said(T, "status_" + v.status)));
    }
    if (v.contract) {
      card.appendChild(el("div", "contract", v.contract === "PASS" ? T.status_passed_out :
        fill(T.contract, {contract: callText(v.contract.replace(/X+$/, "")) + (v.contract.match(/X+$/) || [""])[0],
                          seat: seatName(v.declarer)})));
    }
    if (v.result) {
      card.appendChild(el("div", "result", v.result.tricks === null ? fill(T.result_no_tricks,
        {score: v.result.score_ns}) : fill(T.result, {tricks: v.result.tricks, score: v.result.score_ns})));
    }
    if (v.deal) { card.appendChild(el("div", "deal", dealText(v.deal))); }
    return card;
  }
  function draw() {
    var main = document.getElementById("tables");
    main.textContent = "";
    Object.keys(boards).sort().forEach(function (k) { main.appendChild(drawTable(boards[k])); });
    var ms = document.getElementById("matches");
    ms.textContent = "";
    Object.keys(matches).sort().forEach(function (k) {
      var m = matches[k], name = fill(T.match, {home: team(m.home), away: team(m.away)});
      var p = el("div", "match", name + ": " + (m.walkover ?
        fill(T.walkover, {teams: m.walkover.absent.map(team).join(T.and)}) +
        // scored in IMPs only: the IMPs each team won (docs/laws/choices.md #46), no VPs
        (m.vp ? "" : fill(T.walkover_imps, m)) : fill(T.match_imps, m)) +
        (m.vp ? fill(T.match_vp, {home: m.vp[0], away: m.vp[1]}) : "") +
        (m.deductions && m.deductions.length ? fill(T.deductions, {list: m.deductions.join(", ")}) : ""));
      p.id = "match-" + k.replace(/[^A-Za-z0-9]/g, "-");
      ms.appendChild(p);
    });
    Object.keys(byes).sort().forEach(function (k) {
      byes[k].forEach(function (b) {
        var p = el("div", "bye", fill(T.bye, {team: team(b.team), round: b.round, vp: b.imps_only ? T.imps_only :
          b.vp === null ? T.bye_not_set : fill(T.bye_vp, {vp: b.vp})}));
        p.id = "bye-" + k.replace(/[^A-Za-z0-9]/g, "-") + "-" + b.team + "-" + b.round;
        ms.appendChild(p);
      });
    });
  }
  function take(kind, doc) {
    if (doc.seq && doc.seq > seq) { seq = doc.seq; }
    var now = boards[kind === "board" ? doc.view.table : ""];
    // an earlier board's late news (its deal, once every table has played it) keeps its place
    if (kind === "board" && (!now || now.started <= doc.view.started)) { boards[doc.view.table] = doc.view; }
    if (kind === "match") { matches[doc.match] = doc; }
    if (kind === "byes") { byes[doc.session] = doc.byes; }
  }
  var state = JSON.parse(document.getElementById("state").textContent);
  T = state.texts;
  state.boards.forEach(function (d) { take("board", d); });
  state.matches.forEach(function (d) { take("match", d); });
  state.byes.forEach(function (d) { take("byes", d); });
  seq = state.seq;
  draw();
  function onEvent(kind) { return function (e) { take(kind, JSON.parse(e.data)); draw(); }; }
  if (document.body.getAttribute("data-poll") === "1") {
    var poll = function () {
      fetch("/live/poll?after=" + seq).then(function (r) { return r.text(); }).then(function (text) {
        text.split("\n\n").forEach(function (block) {
          var kind = null, data = null;
          block.split("\n").forEach(function (line) {
            if (line.indexOf("event: ") === 0) { kind = line.slice(7); }
            if (line.indexOf("data: ") === 0) { data = line.slice(6); }
          });
          if (kind && data && kind !== "snapshot") { take(kind, JSON.parse(data)); }
        });
        draw();
        setTimeout(poll, 200);
      }, function () { setTimeout(poll, 2000); });
    };
    poll();
  } else if (window.EventSource) {
    var es = new EventSource("/live/stream?after=" + seq);
    es.addEventListener("board", onEvent("board"));
    es.addEventListener("match", onEvent("match"));
    es.addEventListener("byes", onEvent("byes"));
  }
}());
"""


def render(title: str, note: str, boards: list[dict], matches: list[dict], byes: list[dict], seq: int,
           poll: bool, lang: str = DEFAULT) -> str:
    """The page with the state as it stands (`boards`: the latest board event of each shown table,
    `matches`: each match's score event, `byes`: each session's byes event) and the standing's
    words in `lang` (station/live_texts.py)."""
    state = json.dumps({"seq": seq, "boards": boards, "matches": matches, "byes": byes, "texts": texts(lang)},
                       separators=(",", ":"))
    # Inside <script> nothing may end the element: every "<" is written as its JSON escape.
    state = state.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return PAGE.format(title=html.escape(title), note=html.escape(note), state=state, poll="1" if poll else "0",
                       lang=html.escape(lang))
