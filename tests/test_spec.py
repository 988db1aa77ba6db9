"""The spec layer: shipped variants, extends and merging, the schema, and the bad-spec corpus.

Each file in tests/bad_specs/ (not lib/, which holds parents) names every problem it must
produce, in a leading comment `# expect: FILE:LINE: $.path: message substring`, with FILE
relative to tests/bad_specs/ or a shipped `variant NAME`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from scoutlab.spec import variant as spec_module
from scoutlab.spec.variant import (
    MAX_EXTENDS_DEPTH,
    Problem,
    Spec,
    SpecError,
    load_spec,
    load_spec_text,
    shipped_variants,
    validate_paths,
    variant_schema,
)

HERE = Path(__file__).resolve().parent
BAD = HERE / "bad_specs"
ROOT = HERE.parent
# The variants of the source texts, then the house rules shipped as examples.
SHIPPED = ["official", "two-player", "two-player-28"]
HOUSE_RULES = ["house-no-exemption", "house-runs-first", "house-wrap"]

# The smallest complete spec of our own, so tests do not depend on the shipped files' details.
BASE = """\
schema_version: 1
name: base
description: A base for tests.
players: [3, 4]
deck:
  lowest: 1
  highest: 10
  remove:
    3: {containing: [10]}
    4: {cards: ["9/10"]}
  random_orientation: true
deal:
  hand_size: {3: 12, 4: 11}
  shuffle: each_round
hand_flip: {allowed: true, reverses_order: false}
scout: {payment: owner_receives, extra_turn: false}
scout_and_show: {chips_per_round: 1, fallback_to_scout: false}
scout_chips_per_round: 0
scoring:
  captured_card: 1
  chip_received: 1
  unspent_chip: 0
  card_in_hand: -1
  exempt_last_show_owner: true
rounds: {count: per_player, first_starting_seat: 0, rotate_start: 1}
end_conditions: [hand_emptied, everyone_scouted]
max_turns_per_round: 500
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(target, **kwargs) -> list[Problem]:
    with pytest.raises(SpecError) as caught:
        load_spec_text(target, **kwargs) if isinstance(target, str) and "\n" in target else load_spec(target)
    assert str(caught.value) == "\n".join(map(str, caught.value.problems))
    return caught.value.problems


# --------------------------------------------------------------------------- shipped variants


@pytest.mark.parametrize("name", SHIPPED + HOUSE_RULES)
def test_shipped_variant_loads_and_validates(name):
    spec = load_spec(name)
    assert spec.name == name
    assert spec.source == f"variant {name}"
    assert spec.chain[0] == f"variant {name}"
    assert "extends" not in spec.doc
    assert spec.doc["schema_version"] == 1
    assert isinstance(spec.doc["plugins"], list)  # filled in from the schema's default where not given
    assert all(isinstance(key, str) for key in spec.doc["deal"]["hand_size"])
    assert sorted(spec.doc["deal"]["hand_size"]) == sorted(map(str, spec.doc["players"]))


def test_a_default_from_the_schema_is_filled_in():
    assert "plugins" not in BASE
    assert load_spec_text(BASE).doc["plugins"] == []


def filled(section: str, **given: object) -> dict[str, object]:
    """A merged section as the spec gives it: the given keys, and every other key the schema fills in by default."""
    properties = variant_schema()["properties"][section]["properties"]
    return {**{key: p["default"] for key, p in properties.items() if "default" in p}, **given}


def test_shipped_variants_lists_names_and_descriptions():
    listed = shipped_variants()
    assert [name for name, _ in listed] == sorted(SHIPPED + HOUSE_RULES)
    assert all(description for _, description in listed)
    assert dict(listed)["official"].startswith("The official rules for 3 to 5 players")


def test_two_player_merges_over_official():
    doc = load_spec("two-player").doc
    assert load_spec("two-player").chain == ("variant two-player", "variant official")
    assert doc["players"] == [2]
    assert doc["deck"]["remove"] == {"2": {"cards": ["9/10"], "containing": []}}  # "3" and "4" deleted by null
    assert doc["deck"]["lowest"] == 1 and doc["deck"]["random_orientation"] is True  # inherited beside the change
    assert doc["deal"] == {"hand_size": {"2": 11}, "shuffle": "once"}
    assert doc["scoring"] == filled("scoring", captured_card=1, chip_received=0, unspent_chip=1, card_in_hand=-1,
                                    exempt_last_show_owner=True)
    assert doc["end_conditions"] == ["hand_emptied", "opponent_stuck"]


def test_two_player_28_keeps_scout_and_show():
    doc = load_spec("two-player-28").doc
    assert doc["deck"]["remove"] == {"2": {"containing": [9, 10], "cards": []}}
    assert doc["deal"]["hand_size"] == {"2": 14}
    assert doc["scout_and_show"] == {"chips_per_round": 1, "fallback_to_scout": True}
    assert doc["hand_flip"] == {"allowed": True, "reverses_order": True}


def test_locate_points_at_the_file_and_line_that_set_a_value():
    spec = load_spec("two-player")
    assert spec.locate("$.scoring.unspent_chip") == ("variant two-player", 38)
    assert spec.locate("$.scoring.card_in_hand") == ("variant official", 49)  # inherited
    assert spec.locate(("deal", "hand_size", "2")) == ("variant two-player", 24)
    assert spec.locate("$.end_conditions[1]") == ("variant two-player", 43)
    assert spec.locate("$.plugins") == ("variant official", 60)
    assert spec.locate("$.deck.remove.2.containing") == ("variant two-player", 21)  # a default: its parent's line
    assert spec.locate("$") == ("variant two-player", 2)
    assert spec.problem("$.end_conditions[1]", "unknown end condition") == Problem(
        "variant two-player", 43, "$.end_conditions[1]", "unknown end condition"
    )
    with pytest.raises(ValueError):
        spec.locate("scoring.card_in_hand")


# --------------------------------------------------------------------------- the schema


def test_schema_is_draft_2020_12_and_versioned():
    schema = variant_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "https://scoutlab.dev/schemas/variant/1.json"
    assert schema["properties"]["schema_version"] == {**schema["properties"]["schema_version"], "const": 1}
    assert "schema_version" in schema["required"]
    assert schema == json.loads((ROOT / "schemas" / "variant.schema.json").read_text(encoding="utf-8"))


def _subschemas(node, where="#"):
    """Every schema object inside `node`, with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from _subschemas(sub, f"{where}/{key}/{name}")
            elif isinstance(value, dict):
                yield from _subschemas(value, f"{where}/{key}")


def test_every_property_is_described_and_closed():
    for where, node in _subschemas(variant_schema()):
        for name, sub in node.get("properties", {}).items():
            assert sub.get("description"), f"{where}/properties/{name} has no description"
        if "properties" in node:
            assert node.get("additionalProperties") is False, f"{where} accepts unknown keys"
        if isinstance(node.get("additionalProperties"), dict):
            assert node["additionalProperties"].get("description"), f"{where} map values have no description"


def test_spec_reference_is_generated_from_the_schema():
    loader = importlib.util.spec_from_file_location("gen_spec_reference", ROOT / "scripts" / "gen_spec_reference.py")
    generator = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(generator)
    committed = (ROOT / "docs" / "spec-reference.md").read_text(encoding="utf-8")
    assert committed == generator.render(variant_schema()), "run python scripts/gen_spec_reference.py"
    for where, node in _subschemas(variant_schema()):
        for name in node.get("properties", {}):
            assert f"{name}`" in committed, f"{where}/{name} missing from the reference"


# --------------------------------------------------------------------------- extends and merging


def test_merge_deep_merges_maps_replaces_lists_and_null_deletes(tmp_path):
    base = write(tmp_path, "base.yaml", BASE)
    child = write(
        tmp_path,
        "child.yaml",
        "extends: base.yaml\n"
        "name: child\n"
        "scoring:\n"
        "  card_in_hand: -2\n"
        "end_conditions: [hand_emptied]\n"
        "deck:\n"
        "  remove:\n"
        "    3: null\n"
        "players: [4]\n"
        "deal: {hand_size: {3: null}}\n",
    )
    spec = load_spec(child)
    assert spec.doc["scoring"] == filled("scoring", captured_card=1, chip_received=1, unspent_chip=0, card_in_hand=-2,
                                         exempt_last_show_owner=True)
    assert spec.doc["end_conditions"] == ["hand_emptied"]
    assert spec.doc["deck"]["remove"] == {"4": {"cards": ["9/10"], "containing": []}}
    assert spec.doc["deal"]["hand_size"] == {"4": 11}
    assert spec.chain == (str(child), str(base))
    assert spec.locate("$.scoring.card_in_hand") == (str(child), 4)
    assert spec.locate("$.scoring.captured_card") == (str(base), 20)
    assert spec.locate("$.end_conditions[0]") == (str(child), 5)


def test_a_list_replaces_wholly_so_its_old_items_lose_their_lines(tmp_path):
    write(tmp_path, "base.yaml", BASE.replace("end_conditions: [hand_emptied, everyone_scouted]", "end_conditions:\n  - hand_emptied\n  - everyone_scouted"))
    child = write(tmp_path, "child.yaml", "extends: ./base.yaml\nname: child\nend_conditions: [opponent_stuck]\n")
    spec = load_spec(child)
    assert spec.doc["end_conditions"] == ["opponent_stuck"]
    assert spec.locate("$.end_conditions[1]") == (str(child), 3)


def test_name_and_description_are_never_inherited(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    spec = load_spec(write(tmp_path, "child.yaml", "extends: base.yaml\nname: child\n"))
    assert spec.name == "child"
    assert spec.doc["description"] == ""


def test_extends_by_relative_path_from_another_directory(tmp_path):
    base = write(tmp_path, "lib/base.yaml", BASE)
    middle = write(tmp_path, "lib/middle.yaml", "extends: base.yaml\nname: middle\nmax_turns_per_round: 300\n")
    child = write(tmp_path, "house/child.yaml", "extends: ../lib/middle.yaml\nname: child\nscout_chips_per_round: 1\n")
    spec = load_spec(child)
    assert spec.chain == (str(child), str(middle), str(base))
    assert (spec.doc["max_turns_per_round"], spec.doc["scout_chips_per_round"]) == (300, 1)


def test_extends_by_name_from_text():
    spec = load_spec_text("extends: official\nname: quick\nmax_turns_per_round: 100\n", filename="pasted.yaml")
    assert spec.source == "pasted.yaml"
    assert spec.chain == ("pasted.yaml", "variant official")
    assert spec.doc["max_turns_per_round"] == 100
    assert spec.doc["deal"]["hand_size"] == {"3": 12, "4": 11, "5": 9}


def test_text_may_extend_a_path_only_with_a_base_dir(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    text = "extends: base.yaml\nname: pasted\n"
    assert load_spec_text(text, base_dir=tmp_path).chain == ("<text>", os.path.join(str(tmp_path), "base.yaml"))
    [problem] = problems_of(text)
    assert (problem.file, problem.line, problem.path) == ("<text>", 1, "$.extends")
    assert "extend a shipped variant by name" in problem.message


def test_player_count_keys_read_the_same_as_ints_or_strings(tmp_path):
    quoted = BASE.replace("3: {containing", '"3": {containing').replace("{3: 12, 4: 11}", '{"3": 12, "4": 11}')
    assert quoted != BASE
    assert load_spec_text(quoted).doc == load_spec_text(BASE).doc


def _chain(tmp_path: Path, ancestors: int) -> Path:
    """spec_0.yaml extends spec_1.yaml ... extends spec_N.yaml (the base): N steps."""
    write(tmp_path, f"spec_{ancestors}.yaml", BASE)
    for i in range(ancestors):
        write(tmp_path, f"spec_{i}.yaml", f"extends: spec_{i + 1}.yaml\nname: spec-{i}\n")
    return tmp_path / "spec_0.yaml"


def test_extends_chain_of_the_maximum_depth_loads(tmp_path):
    assert len(load_spec(_chain(tmp_path, MAX_EXTENDS_DEPTH)).chain) == MAX_EXTENDS_DEPTH + 1


def test_extends_chain_deeper_than_the_maximum_is_refused(tmp_path):
    [problem] = problems_of(_chain(tmp_path, MAX_EXTENDS_DEPTH + 1))
    assert (problem.file, problem.line, problem.path) == (str(tmp_path / f"spec_{MAX_EXTENDS_DEPTH}.yaml"), 1, "$.extends")
    assert "extends chain deeper than 10 levels" in problem.message


def test_a_cycle_is_refused_however_the_file_is_named(tmp_path):
    write(tmp_path, "a.yaml", "extends: sub/../b.yaml\nname: a\n")
    write(tmp_path, "sub/.keep", "")
    write(tmp_path, "b.yaml", "extends: ./a.yaml\nname: b\n")
    [problem] = problems_of(tmp_path / "a.yaml")
    assert problem.message.startswith("extends cycle: ")
    assert problem.file == str(tmp_path / "b.yaml")


# --------------------------------------------------------------------------- the bad-spec corpus

_EXPECT = re.compile(r"^# expect: (?P<file>[^:]+?)(?::(?P<line>\d+))?: (?P<path>\$\S*): (?P<text>.+)$")


def _expectations(path: Path) -> list[tuple[str, int | None, str, str]]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# expect:"):
            match = _EXPECT.match(line)
            assert match, f"{path.name}: cannot read {line!r}"
            file = match["file"] if match["file"].startswith("variant ") else os.path.normpath(BAD / match["file"])
            found.append((file, int(match["line"]) if match["line"] else None, match["path"], match["text"]))
    return found


BAD_SPECS = sorted(BAD.glob("*.yaml"))


@pytest.mark.parametrize("path", BAD_SPECS, ids=[p.name for p in BAD_SPECS])
def test_bad_spec(path):
    expected = _expectations(path)
    assert expected, f"{path.name} names no expected problem"
    problems = problems_of(path)
    shown = "\n".join(map(str, problems))
    assert len(problems) == len(expected), f"expected {len(expected)} problems, got:\n{shown}"
    for file, line, json_path, text in expected:
        matching = [
            p
            for p in problems
            if (os.path.normpath(p.file) if not p.file.startswith("variant ") else p.file, p.line, p.path) == (file, line, json_path)
            and text in p.message.replace(str(BAD) + os.sep, "")
        ]
        assert matching, f"no problem {file}:{line}: {json_path}: ...{text}... among:\n{shown}"
    too_long = [p for p in problems if len(p.message) > 300]
    assert not too_long, f"a message quotes more than an excerpt of its input: {str(too_long[0])[:300]}"


def test_the_corpus_covers_what_the_issue_asks_for():
    names = {p.stem for p in BAD_SPECS}
    assert {
        "wrong_type", "unknown_top_key", "unknown_nested_key", "impossible_deal", "missing_hand_size",
        "cycle_a", "unknown_extends_name", "unknown_plugin", "malformed", "inherited_bad", "empty",
        "top_level_list", "three_errors",
    } <= names


def test_all_problems_are_reported_at_once():
    problems = problems_of(BAD / "three_errors.yaml")
    assert len(problems) == 3
    assert len(str(SpecError(problems)).splitlines()) == 3


# --------------------------------------------------------------------------- files and text that are not specs


def test_missing_file():
    [problem] = problems_of(BAD / "no_such_spec.yaml")
    assert problem == Problem(str(BAD / "no_such_spec.yaml"), None, "$", "no such file")
    assert str(problem) == f"{BAD / 'no_such_spec.yaml'}: $: no such file"


def test_a_directory_is_not_a_spec(tmp_path):
    [problem] = problems_of(tmp_path)
    assert "directory" in problem.message


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\u00e9\n".encode("latin-1"))
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.message) == (str(path), None, "not UTF-8 text (bad byte at offset 9)")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path):
    path = write(tmp_path, "secret.yaml", BASE)
    path.chmod(0)
    try:
        [problem] = problems_of(path)
    finally:
        path.chmod(0o644)
    assert "permission denied" in problem.message


def test_unknown_shipped_name_suggests_the_near_one():
    [problem] = problems_of("two-player28")
    assert problem.file == "two-player28" and problem.line is None
    assert "did you mean 'two-player-28'?" in problem.message or "did you mean 'two-player'?" in problem.message


def test_a_pathlike_or_a_path_string_load_the_same(tmp_path):
    path = write(tmp_path, "base.yaml", BASE)
    assert load_spec(path).doc == load_spec(str(path)).doc


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("a: [1\n", 2, "malformed YAML"),
        ("a: !python/object:os.system x\n", 1, "malformed YAML"),
        ("a: &x [*x]\n", 1, "an alias refers to a value that contains it"),
        ("---\na: 1\n---\nb: 2\n", 3, "expected a single document"),
        ("\t- x\n", 1, "malformed YAML"),
        ("null\n", 1, "not null"),
        ("42\n", 1, "not the number 42"),
    ],
)
def test_text_that_is_not_a_spec_mapping(text, line, message):
    problems = problems_of(text, filename="t.yaml")
    assert (problems[0].file, problems[0].line, problems[0].path) == ("t.yaml", line, "$")
    assert message in problems[0].message


def test_yaml_anchors_and_merge_keys_work():
    text = BASE.replace("hand_flip: {allowed: true, reverses_order: false}", "hand_flip: &flip {allowed: true, reverses_order: false}")
    text = text.replace("scout: {payment: owner_receives, extra_turn: false}", "scout: {payment: owner_receives, extra_turn: false}\nx_copy: {<<: *flip}")
    problems = problems_of(text)
    assert [p.path for p in problems] == ["$.x_copy"]  # the merge key was resolved, the unknown key reported


@pytest.mark.parametrize("written, read", [("011", 11), ("0_11", 11), ("-011", -11), ("0", 0), ("0x1f", 31), ("1:20", "1:20"),
                                           ("1:20.5", "1:20.5"), ("1_000", 1000)])
def test_numbers_read_as_a_person_means_them_not_as_yaml_1_1(written, read):
    from scoutlab.spec.source import parse

    assert parse(f"n: {written}\n").data == {"n": read}  # YAML 1.1: 011 is 9 (octal), 1:20 is 80 (base 60)


def test_a_key_that_would_reorder_the_line_is_escaped_in_its_path_too():
    problems = problems_of(BASE + "\u202escoring: 1\n")
    [said] = [str(p) for p in problems if "unknown key" in p.message]
    assert "$.\\u202escoring: unknown key '\\u202escoring'" in said and "\u202e" not in said


def test_non_string_keys_and_integral_floats_are_refused():
    problems = problems_of(BASE.replace("max_turns_per_round: 500", "max_turns_per_round: 500.0\ndeal_extra: {yes: 1}"))
    shown = {(p.line, p.path, p.message) for p in problems}
    assert (27, "$.max_turns_per_round", "expected a whole number, got the number 500.0") in shown
    assert (28, "$.deal_extra", "key 'yes' is not a name or a number; quote it") in shown


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(BASE.splitlines() + ["  ", "- 3", "deck:", "  remove: ~", "extends: official", "{", "&a", "*a"]), max_size=30))
def test_no_input_gets_anything_but_a_spec_error(lines):
    try:
        load_spec_text("\n".join(lines))
    except SpecError as exc:
        assert exc.problems and all(isinstance(p, Problem) for p in exc.problems)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_no_text_gets_anything_but_a_spec_error(text):
    try:
        load_spec_text(text)
    except SpecError as exc:
        assert exc.problems


# --------------------------------------------------------------------------- validate_paths and the command line


def test_validate_paths_gathers_every_file_and_never_raises(tmp_path):
    good = write(tmp_path, "good.yaml", BASE)
    problems = validate_paths([good, BAD / "three_errors.yaml", BAD / "empty.yaml", "official", tmp_path / "gone.yaml"])
    files = [Path(p.file).name for p in problems]
    assert files.count("three_errors.yaml") == 3
    assert files.count("empty.yaml") == 1
    assert files.count("gone.yaml") == 1
    assert validate_paths([good, "official"]) == []


def test_command_line(capsys):
    assert spec_module.main(["official", "two-player"]) == 0
    assert "ok: 2 specs" in capsys.readouterr().out
    assert spec_module.main([str(BAD / "unknown_top_key.yaml")]) == 1
    assert "did you mean 'scout'?" in capsys.readouterr().out
    assert spec_module.main([]) == 2


def test_spec_is_frozen():
    spec = load_spec("official")
    assert isinstance(spec, Spec)
    with pytest.raises(AttributeError):
        spec.name = "other"  # type: ignore[misc]


def test_validate_reports_schema_and_compile_problems_of_every_file_at_once(tmp_path, capsys):
    from scoutlab.cli import main

    bad_key = write(tmp_path, "a.yaml", "extends: official\nname: a\nplayerz: [3]\n")
    bad_end = write(tmp_path, "b.yaml", "extends: official\nname: b\nend_conditions: [hand_emptyed]\n")
    assert main(["validate", str(bad_key), str(bad_end)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{bad_key}:3: $.playerz: unknown key 'playerz'; did you mean 'players'?",
        f"{bad_end}:3: $.end_conditions[0]: unknown end condition 'hand_emptyed'; did you mean 'hand_emptied'? "
        "(known: everyone_scouted, hand_emptied, opponent_stuck)",
    ]


def test_narrowing_players_drops_the_inherited_entries_of_the_counts_left_out():
    doc = load_spec_text("extends: official\nname: four\nplayers: [4]\n", "four.yaml").doc
    assert doc["deal"]["hand_size"] == {"4": 11}
    assert set(doc["deck"]["remove"]) == {"4"}


def test_narrowing_players_keeps_the_childs_own_entries_and_reports_them_at_its_line():
    text = "extends: official\nname: four\nplayers: [4]\ndeal:\n  hand_size: {'5': 8}\n"
    with pytest.raises(SpecError) as caught:
        load_spec_text(text, "four.yaml")
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == ("four.yaml", 5, "$.deal.hand_size.5")


def test_a_grandchild_that_widens_players_again_must_deal_the_new_count():
    with pytest.raises(SpecError, match=r"deal.hand_size has no entry for 3"):
        load_spec_text("extends: two-player\nname: wide\nplayers: [2, 3]\n", "wide.yaml")


# --------------------------------------------------------------------------- inherited values made wrong by a child


def test_an_inherited_value_a_child_makes_wrong_is_blamed_on_the_childs_line(tmp_path):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: small\nplayers: [5]\ndeck:\n  highest: 8\n")
    with pytest.raises(SpecError) as caught:
        load_spec(spec)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.path) == (str(spec), 5, "$.deal.hand_size.5")
    assert problem.message.endswith("(the value is inherited from variant official:28; $.deck.highest, set here, makes it wrong)")


def test_the_blame_goes_to_the_nearest_file_of_the_chain_that_set_the_cause(tmp_path):
    (tmp_path / "middle.yaml").write_text("extends: official\nname: middle\nschema_version: 1\ndeal:\n  shuffle: once\n")
    top = tmp_path / "top.yaml"
    top.write_text("extends: ./middle.yaml\nname: top\nplayers: [3]\n")
    with pytest.raises(SpecError) as caught:
        load_spec(top)
    (problem,) = caught.value.problems
    # the hand size is official's, the shuffle is middle's: middle made it wrong, top did not
    assert (problem.file, problem.line, problem.path) == (str(tmp_path / "middle.yaml"), 5, "$.deal.hand_size.3")
    assert "(the value is inherited from variant official:28; $.deal.shuffle, set here, makes it wrong)" in problem.message


def test_a_value_the_child_sets_itself_is_blamed_as_before(tmp_path):
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: big\ndeal:\n  hand_size: {4: 12}\n")
    with pytest.raises(SpecError) as caught:
        load_spec(spec)
    (problem,) = caught.value.problems
    assert (problem.line, problem.path) == (4, "$.deal.hand_size.4") and "inherited" not in problem.message


def test_a_shipped_variant_is_read_once_and_each_caller_gets_its_own_document():
    # The server loads a shipped variant at every new match: read once a process, but a caller that changes
    # its document (the lab, a test) must not change what the next caller loads.
    first = load_spec("official")
    first.doc["rounds"] = "changed"
    first.doc["deal"]["hand_size"]["3"] = 99
    again = load_spec("official")
    assert again.doc["rounds"] != "changed" and again.doc["deal"]["hand_size"]["3"] != 99
    assert again.doc == load_spec(ROOT / "variants" / "official.yaml").doc  # the same as read from the file now
    assert again.origins == first.origins and again.chain == first.chain
    shipped = shipped_variants()
    shipped.append(("mine", ""))
    assert ("mine", "") not in shipped_variants()


@pytest.mark.parametrize("parent", [b"extends: official\nname: big\n" + b"#" * 1_100_000, b"name: \xff\n"])
def test_a_parent_that_cannot_be_read_is_named_where_the_child_extends_it(tmp_path, parent):
    from scoutlab.text.i18n import gettext_for
    from scoutlab.text.spec_messages import translate_problem

    (tmp_path / "parent.yaml").write_bytes(parent)
    (tmp_path / "child.yaml").write_text("extends: parent.yaml\nname: child\n")
    with pytest.raises(SpecError) as error:
        load_spec(tmp_path / "child.yaml")
    [problem] = error.value.problems  # it was at the parent's file, with no line of the child's
    assert (Path(problem.file).name, problem.line, problem.path) == ("child.yaml", 1, "$.extends")
    assert problem.message.startswith("cannot extend 'parent.yaml': ")
    said = translate_problem(problem, gettext_for("fa")).split("$.extends: ")[1]
    assert said.count("parent.yaml") == 1 and not any(word in said for word in ("cannot", "bytes", "offset"))
