"""`scoutlab engine`: the JSON-lines protocol, in-process and as a real program, and its documented transcript."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from scoutlab.engine.actions import Show
from scoutlab.protocol import EngineSession, serve
from scoutlab.records.position import dump_position
from scoutlab.rules import load_rules

DOC = Path(__file__).resolve().parents[1] / "docs" / "engine-protocol.md"


def ask(session: EngineSession, **request) -> dict:
    """One request through the text layer, as a client would send it."""
    reply = session.handle_line(json.dumps(request))
    assert reply is not None and isinstance(reply["ok"], bool)
    json.dumps(reply)  # every answer must be JSON
    return reply


def test_hello_names_the_protocol_and_commands():
    reply = ask(EngineSession(), id="h", cmd="hello")
    assert reply["id"] == "h" and reply["ok"] is True
    assert reply["protocol"] == 1 and reply["engine"] == "scoutlab"
    assert {"new_game", "position", "view", "legal", "act", "quit"} <= set(reply["commands"])
    assert "official" in reply["variants"]



@pytest.mark.parametrize(("sent", "echoed"), [(7, 7), ("x" * 198, "x" * 198), ("x" * 199, None), (10**199, 10**199),
                                              (-(10**199), None), ([1] * 100, None)])
def test_an_id_is_echoed_only_while_its_json_is_short(sent, echoed):
    assert ask(EngineSession(), id=sent, cmd="hello")["id"] == echoed  # a 4,300-digit number came back whole

@pytest.mark.parametrize("variant, players", [("official", 3), ("official", 5), ("two-player", 2), ("two-player-28", 2)])
def test_a_whole_game_through_the_protocol_matches_the_engine(variant, players):
    session = EngineSession()
    reply = ask(session, cmd="new_game", variant=variant, players=players, seed=9)
    assert reply["ok"] and reply["players"] == players and reply["phase"] == "flip"
    state = load_rules(variant).new_game(players, 9)
    ends = 0
    while not state.is_over:
        legal = ask(session, cmd="legal")
        assert legal["seat"] == state.to_act
        assert legal["legal"] == [state.format(code) for code in state.legal_actions()]
        move = legal["legal"][len(legal["legal"]) // 2]
        reply = ask(session, cmd="act", action=move)
        assert reply["ok"], reply
        state.apply_text(move)
        assert reply["to_act"] == state.to_act and reply["totals"] == state.totals
        if "round_end" in reply:
            assert reply["round_end"]["scores"] == list(state.round_ends[ends].scores)
            ends += 1
    assert ends == state.rounds
    assert reply["game_over"] is True and reply["winners"] == state.winners()
    late = ask(session, cmd="act", action="keep")
    assert not late["ok"] and "the game is over" in late["error"]


def test_view_shows_one_seat_and_never_another_seats_cards():
    session = EngineSession()
    ask(session, cmd="new_game", variant="official", players=4, seed=3)
    state = session.state
    for seat in range(4):
        view = ask(session, cmd="view", seat=seat)["view"]
        assert view["seat"] == seat
        assert view["hand"] == [f"{c >> 5}/{c & 31}" for c in state.hands[seat]]
        others = {f"{c >> 5}/{c & 31}" for s in range(4) if s != seat for c in state.hands[s]}
        assert not others & set(json.dumps(view).replace('"', " ").split())
        assert view["hand_sizes"] == [11, 11, 11, 11]
        assert view["legal"] == (["keep", "flip"] if seat == state.to_act else [])
    assert ask(session, cmd="view")["view"]["seat"] == state.to_act  # default: the seat to act
    ask(session, cmd="act", action="flip")
    history = ask(session, cmd="view", seat=2)["view"]["history"]
    assert history == [{"round": 0, "seat": 0, "action": "flip"}]


def test_position_from_yaml_text_and_from_an_object():
    rules = load_rules("official")
    state = rules.new_game(3, 5)
    for move in ("keep", "flip", "keep", "show 2"):
        state.apply_text(move)
    text = dump_position(state)
    session = EngineSession()
    for position in (text, yaml.safe_load(text)):
        reply = ask(session, cmd="position", position=position)
        assert reply["ok"], reply
        assert reply["to_act"] == state.to_act and reply["turn"] == 1
        assert ask(session, cmd="legal")["legal"] == [state.format(c) for c in state.legal_actions()]
    bad = ask(session, cmd="position", position="players: 3\nhands: [\"1/2\"]\n")
    assert not bad["ok"] and "<position>" in bad["error"] and "hands" in bad["error"]


@pytest.mark.parametrize("line, error", [
    ("{not json", "not a JSON line"),
    ("[1, 2]", "a request is a JSON object, got an array"),
    ("null", "a request is a JSON object, got null"),
    ('{"id": 7}', 'a request needs a "cmd"'),
    ('{"cmd": "legl"}', "unknown command 'legl'; did you mean 'legal'?"),
    ('{"cmd": "legal"}', "no game yet: send new_game first"),
    ('{"cmd": "new_game", "variant": "offical"}', "offical"),
    ('{"cmd": "new_game", "players": "three"}', '\'players\' must be an integer, got "three"'),
    ('{"cmd": "new_game", "players": 9}', "is for 3, 4, 5 players, not 9"),
    ('{"cmd": "position"}', 'position needs "position"'),
])
def test_bad_requests_are_answered_and_the_engine_goes_on(line, error):
    session = EngineSession()
    reply = session.handle_line(line)
    assert reply["ok"] is False and error in reply["error"], reply
    assert ask(session, cmd="hello")["ok"]


def test_illegal_and_malformed_moves_say_why():
    session = EngineSession()
    ask(session, id=1, cmd="new_game", variant="two-player", seed=2)
    reply = ask(session, id=2, cmd="act", action="show 1")
    assert reply == {"id": 2, "ok": False, "error": session.state.explain(session.state.rules.codec.encode(Show(0, 1)))}
    assert "first choose 'keep' or 'flip'" in reply["error"]
    assert "is not a move: expected" in ask(session, cmd="act", action="dance")["error"]
    # A show no hand could hold gets the reason any illegal move gets here (scoutlab legal says the same).
    assert "first choose 'keep' or 'flip'" in ask(session, cmd="act", action="show 1-60")["error"]
    assert 'act needs "action"' in ask(session, cmd="act")["error"]
    for move in ("keep", "keep"):
        assert ask(session, cmd="act", action=move)["ok"]
    # The codec packs a show's length into a fixed width: "show 1-46" must not alias "show 2", legal here.
    reply = ask(session, cmd="act", action="show 1-46")
    hand = len(session.state.hands[session.state.to_act])
    assert not reply["ok"] and f"your hand has only {hand} cards" in reply["error"] and session.state.turn == 0
    assert ask(session, cmd="view", seat=5)["error"] == "seat 5 does not exist: seats are 0 to 1"


def test_an_internal_error_is_reported_and_the_engine_survives(monkeypatch):
    session = EngineSession()
    monkeypatch.setitem(session.commands, "legal", lambda request: 1 / 0)
    reply = ask(session, cmd="legal")
    assert not reply["ok"] and reply["error"].startswith("internal error (ZeroDivisionError")
    assert ask(session, cmd="hello")["ok"]


def test_blank_lines_get_no_answer():
    assert EngineSession().handle_line("   \n") is None


def test_serve_answers_line_by_line_until_quit():
    import io

    out = io.StringIO()
    requests = '{"id": 1, "cmd": "hello"}\n\n{"id": 2, "cmd": "quit"}\n{"id": 3, "cmd": "hello"}\n'
    assert serve(io.StringIO(requests), out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["id"] for r in replies] == [1, 2] and replies[1]["bye"] is True


def test_the_real_program_answers_each_line_as_it_comes():
    """A client waits for each answer before it sends the next request: nothing may sit in a buffer."""
    engine = subprocess.Popen([sys.executable, "-m", "scoutlab.cli", "engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        for request in ({"id": 1, "cmd": "new_game", "variant": "two-player", "seed": 4}, {"id": 2, "cmd": "legal"},
                        "garbage", {"id": 3, "cmd": "act", "action": "flip"}):
            engine.stdin.write((request if isinstance(request, str) else json.dumps(request)) + "\n")
            engine.stdin.flush()
            reply = json.loads(engine.stdout.readline())
            assert reply["ok"] is (request != "garbage")
        engine.stdin.write('{"cmd": "quit"}\n')
        engine.stdin.flush()
        assert json.loads(engine.stdout.readline())["bye"] is True
        assert engine.wait(timeout=10) == 0
    finally:
        engine.kill()
        engine.stdin.close()
        engine.stdout.close()


def documented_exchanges() -> list[tuple[str, dict]]:
    """The transcript in docs/engine-protocol.md: `>` lines are requests, `<` lines the engine's answers."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- transcript -->\s*```text\n(.*?)```", text, re.S)
    assert block, "docs/engine-protocol.md has a transcript block"
    pairs, request = [], None
    for line in block[1].splitlines():
        if line.startswith("> "):
            request = line[2:]
        elif line.startswith("< "):
            pairs.append((request, json.loads(line[2:])))
    return pairs


def test_the_documented_transcript_is_what_the_engine_says():
    session = EngineSession()
    exchanges = documented_exchanges()
    assert len(exchanges) >= 8
    for request, answer in exchanges:
        reply = session.handle_line(request)
        assert reply == answer, f"for {request}"
