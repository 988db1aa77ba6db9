"""Game records: what they hold, byte-for-byte determinism, the schema, replay, the `replay` command
and the bad-record corpus (tests/bad_records/, described in its expected.yaml)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from scoutlab import __version__
from scoutlab.cli import main
from scoutlab.engine.cards import format_hand
from scoutlab.match import make_bots, play_game
from scoutlab.records.game import (
    RECORD_SCHEMA_ID,
    RECORD_VERSION,
    RecordError,
    game_record,
    load_record,
    parse_record,
    record_schema,
    record_text,
    replay_record,
    save_record,
)
from scoutlab.rules import load_rules
from scoutlab.spec.variant import shipped_variants

BAD = Path(__file__).resolve().parent / "bad_records"
CORPUS = yaml.safe_load((BAD / "expected.yaml").read_text(encoding="utf-8"))
VARIANTS = [name for name, _ in shipped_variants()]


def played(variant: str = "official", players: int = 3, seed: int = 4):
    rules = load_rules(variant)
    bots = make_bots(["random"], rules, players, seed)
    return play_game(rules, players, bots, seed), [bot.name for bot in bots]


# --------------------------------------------------------------------------- what a record holds


def test_a_record_holds_the_whole_game():
    state, bots = played()
    record = game_record(state, bots)
    assert record["record_version"] == RECORD_VERSION
    assert record["scoutlab_version"] == __version__
    assert record["variant"] == state.rules.spec.doc
    assert (record["players"], record["seed"], record["bots"]) == (3, 4, ["random"] * 3)
    assert len(record["rounds"]) == state.rounds
    for index, recorded in enumerate(record["rounds"]):
        assert [" ".join(hand) for hand in recorded["deal"]] == [format_hand(h) for h in state.deals[index]]
        moves = [(seat, code) for r, seat, code in state.history if r == index]
        assert [(a["seat"], a["code"]) for a in recorded["actions"]] == moves
        assert [a["action"] for a in recorded["actions"]] == [state.format(code) for _, code in moves]
        end = state.round_ends[index]
        assert recorded["end"]["scores"] == list(end.scores)
        assert (recorded["end"]["reason"], recorded["end"]["exempt"]) == (end.reason, end.exempt)
    assert record["totals"] == state.totals
    assert record["winners"] == state.winners()


def test_a_record_does_not_share_the_live_spec():
    state, bots = played()
    record = game_record(state, bots)
    record["variant"]["name"] = "changed"
    assert state.rules.spec.doc["name"] == "official"


def test_only_a_finished_game_has_a_record():
    state = load_rules("official").new_game(3, 1)
    with pytest.raises(ValueError, match="only a finished game"):
        game_record(state, [])


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_are_byte_identical_for_the_same_game(variant, tmp_path):
    players = load_rules(variant).players[-1]
    first, bots = played(variant, players, 11)
    again, _ = played(variant, players, 11)
    save_record(game_record(first, bots), tmp_path / "a.json")
    save_record(game_record(again, bots), tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    other, _ = played(variant, players, 12)
    assert record_text(game_record(other, bots)) != (tmp_path / "a.json").read_text(encoding="utf-8")


def test_the_canonical_text_has_sorted_keys_and_fixed_separators():
    state, bots = played()
    text = record_text(game_record(state, bots))
    assert text.endswith("}\n") and text.count("\n") == 1
    assert text.startswith('{"bots":["random","random","random"],"players":3,"record_version":1,')
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- the schema


def test_the_schema_is_versioned_2020_12_and_described():
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == RECORD_SCHEMA_ID and RECORD_SCHEMA_ID.endswith(f"/record/{RECORD_VERSION}.json")

    def undescribed(node, path):
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub and "$ref" not in sub:
                    yield f"{path}.{name}"
            for key, sub in node.items():
                yield from undescribed(sub, f"{path}.{key}")

    assert list(undescribed(schema, "$")) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_variant_writes_a_valid_record(variant):
    state, bots = played(variant, load_rules(variant).players[0], 3)
    jsonschema.Draft202012Validator(record_schema()).validate(json.loads(record_text(game_record(state, bots))))


def test_schema_problems_are_all_listed_with_their_json_paths():
    state, bots = played()
    record = json.loads(record_text(game_record(state, bots)))
    record["seed"] = "four"
    record["rounds"][1]["actions"][0]["seat"] = -1
    del record["totals"]
    record["rounds"][0]["extra"] = 1
    with pytest.raises(RecordError) as error:
        parse_record(json.dumps(record), "r.json")
    lines = str(error.value).splitlines()
    assert "r.json: $: missing required key 'totals'" in lines  # as a spec's problems are worded, not jsonschema's
    assert "r.json: $.rounds[0].extra: unknown key 'extra' (allowed here: deal, actions, end)" in lines
    with pytest.raises(RecordError, match=re.escape("r.json: $.rounds: must list at least 1 item")):
        parse_record(json.dumps({**record, "rounds": []}), "r.json")
    assert "r.json: $.seed: expected a whole number, got the string 'four'" in lines
    assert "r.json: $.rounds[1].actions[0].seat: must be at least 0, got -1" in lines


def test_a_record_saved_with_a_byte_order_mark_still_replays(tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (BAD / "good.json").read_bytes())  # as some editors save it
    assert main(["replay", "--quiet", str(path)]) == 0  # was Python's "Unexpected UTF-8 BOM (decode using utf-8-sig)"

def test_a_missing_file_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match=r"nowhere\.json: no such file"):
        load_record(tmp_path / "nowhere.json")


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_reproduces_the_game(variant):
    state, bots = played(variant, load_rules(variant).players[0], 5)
    record = json.loads(record_text(game_record(state, bots)))
    result = replay_record(record)
    assert result.ok and result.divergence is None
    assert result.state.history == state.history
    assert result.state.totals == state.totals


def test_replay_needs_no_action_codes():
    state, bots = played()
    record = game_record(state, bots)
    for played_round in record["rounds"]:
        for action in played_round["actions"]:
            del action["code"]
    assert replay_record(record).ok


def test_a_record_replays_after_its_variant_file_changes(tmp_path):
    spec = tmp_path / "mine.yaml"
    spec.write_text("extends: official\nname: mine\nscoring: {card_in_hand: -2}\n", encoding="utf-8")
    rules = load_rules(str(spec))
    bots = make_bots(["random"], rules, 3, 8)
    record = game_record(play_game(rules, 3, bots, 8), [b.name for b in bots])
    spec.write_text("extends: official\nname: mine\nscoring: {card_in_hand: 0}\n", encoding="utf-8")
    save_record(record, tmp_path / "game.json")
    spec.unlink()
    assert replay_record(load_record(tmp_path / "game.json")).ok


def test_a_changed_embedded_rule_is_a_divergence():
    state, bots = played()
    record = game_record(state, bots)
    record["variant"]["scoring"]["card_in_hand"] = -2
    result = replay_record(record)
    assert not result.ok
    assert result.divergence.path == "$.rounds[0].end.scores"


# --------------------------------------------------------------------------- the command


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_record_then_replay_round_trips_through_the_cli(variant, tmp_path, capsys):
    path = tmp_path / "game.json"
    players = str(load_rules(variant).players[0])
    assert main(["game", "--variant", variant, "--players", players, "--seed", "6", "--record", str(path)]) == 0
    game_out = capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    replay_out = capsys.readouterr().out
    # The replay prints the same game log, then says that the record matched.
    log = game_out.split("record saved to")[0].strip()
    assert replay_out.startswith(log)
    assert replay_out.rstrip().endswith(f"in {len(load_record(path)['rounds'])} rounds)")
    assert main(["replay", "--quiet", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [replay_out.rstrip().splitlines()[-1]]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_bad_record_corpus(name, capsys):
    case = CORPUS[name]
    path = BAD / name
    assert main(["replay", "--quiet", str(path)]) == case["exit"], case["change"]
    out, err = capsys.readouterr()
    said = out if case["exit"] == 0 else err
    assert case["message"] in said, f"{name} ({case['change']}): got {said!r}"
    assert "Traceback" not in out + err
    assert len(out + err) < 600, "a message quotes an excerpt of the record, never the record"
    if case["exit"]:
        assert out == "" and len(err.strip().splitlines()) == 1, "one line on stderr, nothing on stdout"
    if "at" in case:  # the JSON path comes first, right after the file
        after = err.split(str(path), 1)[1].removeprefix(" does not match its replay").removeprefix(": ")
        assert after.startswith(case["at"] + ": "), f"{name}: expected the path {case['at']} first: {err!r}"


def test_the_corpus_lists_every_file():
    assert sorted(CORPUS) == sorted(p.name for p in BAD.glob("*.json"))


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path, capsys):
    from scoutlab.base.limits import MAX_RECORD_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as out:  # sparse: the test writes no 10 MB
        out.truncate(MAX_RECORD_BYTES + 1)
    assert main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert err == f"scoutlab replay: {path}: the record is {MAX_RECORD_BYTES + 1:,} bytes, more than the limit of 10 MB (10,000,000 bytes)\n"
