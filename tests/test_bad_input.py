"""Bad input at every door of the command line: one line that says where and why, never a traceback.

The engine-protocol corpus lives in tests/bad_protocol/ (described in its expected.yaml);
bad specs and records have their own corpora (tests/bad_specs/, tests/bad_records/),
run by test_spec.py and test_records.py. Here: the limits themselves, each command on
deep or oversized input, and `extends` of files that are not specs.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from scoutlab.base.limits import (
    MAX_COMPILED_CODES,
    MAX_NESTING,
    MAX_PROTOCOL_LINE,
    MAX_SPEC_BYTES,
    compiled_codes,
    excerpt,
    loads_json,
    nesting,
    read_capped,
)
from scoutlab.cli import main
from scoutlab.engine.cards import parse_card
from scoutlab.engine.legal import Layout
from scoutlab.protocol import serve
from scoutlab.rules import load_rules
from scoutlab.spec.variant import SpecError, load_spec_text, shipped_variants

ROOT = Path(__file__).resolve().parents[1]
BAD_SPECS = ROOT / "tests" / "bad_specs"
PROTOCOL = ROOT / "tests" / "bad_protocol"
PROTOCOL_CORPUS = yaml.safe_load((PROTOCOL / "expected.yaml").read_text(encoding="utf-8"))
ACCOUNTS = BAD_SPECS / "lib" / "accounts"


def one_line_error(capsys, command: list[str]) -> str:
    """Run `scoutlab COMMAND`; it must fail with one short line on stderr and no traceback."""
    assert main(command) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1, err[:2000]
    assert len(err) < 600, "an error quotes an excerpt, never the input"
    return err


def refused_argument(capsys, command: list[str]) -> str:
    """Run `scoutlab COMMAND` with an argument argparse refuses: exit code 2 and one line on stderr, nothing else."""
    with pytest.raises(SystemExit) as exited:
        main(command)
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == "" and "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err[:2000]
    return err


# --------------------------------------------------------------------------- the limits themselves


@pytest.mark.parametrize("width", [1, 12, 45, 153])
def test_compiled_codes_counts_what_the_engine_lays_out(width):
    layout = Layout(width)
    assert compiled_codes(width) == len(layout.shows) + sum(len(codes) for codes in layout.scouts)


@pytest.mark.parametrize("name", [name for name, _ in shipped_variants()])
def test_every_shipped_variant_is_within_the_budget(name):
    assert compiled_codes(load_rules(name).codec.width) <= MAX_COMPILED_CODES


def test_the_budget_allows_18_numbers_and_not_19():
    def spec(highest: int) -> str:
        return (f"extends: official\nname: wide\nplayers: [3]\ndeck: {{highest: {highest}, remove: {{4: null}}}}\n"
                "deal: {hand_size: {4: null, 5: null}}\n")

    assert load_spec_text(spec(18)).doc["deck"]["highest"] == 18
    with pytest.raises(SpecError, match=r"a deck of 171 cards \(numbers 1 to 19\) compiles to 118,509 action codes"):
        load_spec_text(spec(19))


def test_excerpt_keeps_the_start_and_says_the_length():
    assert excerpt("keep") == "'keep'"
    assert excerpt("x" * 41) == "'" + "x" * 40 + "'... (41 characters)"
    assert excerpt(2**200) == "a 201-bit number"
    assert excerpt(12) == "12"


def test_nesting_is_measured_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert nesting(deep) == MAX_NESTING + 1  # it stops counting once the limit is passed
    assert nesting({"a": [1, {"b": []}]}) == 4 and nesting([]) == 1 and nesting(5) == 0


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000, "nested deeper than 64 levels"),
    ("[" * 65 + "]" * 65, "nested deeper than 64 levels"),
    ("1" * 5000, "a number has more than 4,300 digits"),
])
def test_loads_json_refuses_what_would_break_python(text, message):
    with pytest.raises(ValueError, match=message):
        loads_json(text)
    assert loads_json("[" * 64 + "]" * 64) is not None


def test_read_capped_stops_at_the_limit(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"a" * 101)
    with pytest.raises(ValueError, match=r"the file is 101 bytes, more than the limit of 100 bytes"):
        read_capped(str(path), 100, "the file")
    for endless in ("/dev/zero", "/dev/stdin"):  # a device or a pipe is not read at all: it may never end
        if Path(endless).exists():
            with pytest.raises(OSError, match="not a regular file"):
                read_capped(endless, 1000, "the file")


def test_a_pipe_named_as_a_spec_is_refused_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)  # nobody writes: opening it for reading would wait for ever
    err = one_line_error(capsys, ["validate", str(fifo)])
    assert f"{fifo}: $: cannot read the file: not a regular file (a pipe, a socket or a device)" in err


# --------------------------------------------------------------------------- every command, deep or oversized


DEEP_SPEC = BAD_SPECS / "deep_flow.yaml"


@pytest.mark.parametrize("command", [
    ["validate", str(DEEP_SPEC)],
    ["rules", str(DEEP_SPEC)],
    ["game", "--variant", str(DEEP_SPEC)],
    ["diff", "official", str(DEEP_SPEC)],
    ["simulate", str(DEEP_SPEC), "--games", "1"],
])
def test_a_5000_deep_spec_is_one_line_everywhere(capsys, command):
    err = one_line_error(capsys, command)
    assert f"{DEEP_SPEC}:4: $: nested deeper than 64 levels of lists and mappings" in err


def test_a_deep_position_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text("variant: official\nhands: " + "[" * 5000 + "\n")
    assert f"{path}:2: $: nested deeper than 64 levels" in one_line_error(capsys, ["legal", str(path)])


def test_a_deep_record_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text('{"rounds": ' + "[" * 100_000)
    assert f"{path}: $: nested deeper than 64 levels" in one_line_error(capsys, ["replay", str(path)])


def _record_near_10_mb(kind: str) -> dict:
    """good.json of the bad-record corpus grown to just under 10 MB in one way."""
    record = json.loads((ROOT / "tests" / "bad_records" / "good.json").read_text())
    first = record["rounds"][0]
    if kind == "actions":  # one round of 250,000 actions (300,000 took 30 CPU-s to refuse)
        first["actions"] = [{"seat": 0, "action": "keep", "code": 0}] * 230_000
    elif kind == "cards":  # a hand of 1,000,000 cards (38 CPU-s)
        first["deal"][0] = ["1/2"] * 1_000_000
    elif kind == "rounds":  # 9,000 rounds (6,000 took 21 CPU-s)
        record["rounds"] = [first] * 9_000
    elif kind == "bad-actions":  # within every bound: 24 rounds of 10,000 actions, each with a bad seat
        record["rounds"] = [{**first, "actions": [{"seat": -1, "action": "keep"}] * 10_000}] * 24
    else:  # an embedded variant of 9 MB (turned into YAML before the spec's 1 MB cap refused it)
        record["variant"]["description"] = "d" * 9_000_000
    return record


@pytest.mark.parametrize("kind", ["actions", "cards", "rounds", "bad-actions", "variant"])
def test_a_bad_record_near_10_mb_is_refused_cheaply(tmp_path, capsys, kind):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_record_near_10_mb(kind)))
    assert 7_000_000 < path.stat().st_size < 10_000_000
    started = time.process_time()
    err = one_line_error(capsys, ["replay", "--quiet", str(path)]) if kind != "bad-actions" else None
    if err is None:  # many problems: listed 10 to a message, several lines
        assert main(["replay", "--quiet", str(path)]) == 1
        err = capsys.readouterr().err
        assert "$.rounds[0].actions[0].seat: must be at least 0, got -1" in err and "... and at least" in err
    took = time.process_time() - started
    assert took < 4, f"{took:.1f} CPU-s to refuse a bad record"
    assert "more than" in err or kind == "bad-actions", err


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["game", "--variant"], ["diff", "official"]])
def test_a_spec_over_1_mb_is_refused_unread(tmp_path, capsys, command):
    path = tmp_path / "huge.yaml"
    path.write_text("extends: official\nname: huge\ndescription: " + "d" * 30_000_000 + "\n")
    err = one_line_error(capsys, [*command, str(path)])
    size = path.stat().st_size
    assert f"{path}: $: the spec file is {size:,} bytes, more than the limit of 1 MB (1,000,000 bytes)" in err


def test_pasted_spec_text_is_capped_too():
    with pytest.raises(SpecError, match=r"the spec text is 1,000,0\d\d bytes, more than the limit of 1 MB"):
        load_spec_text("extends: official\nname: huge\ndescription: " + "d" * MAX_SPEC_BYTES + "\n")


def test_a_spec_cannot_make_rules_print_more_than_its_summary(tmp_path, capsys):
    path = tmp_path / "talkative.yaml"
    path.write_text("extends: official\nname: talkative\ndescription: " + "d" * 900_000 + "\n")
    err = one_line_error(capsys, ["rules", str(path)])
    assert "$.description: must be at most 500 characters, got 900,000" in err


@pytest.mark.parametrize("command", [["game", "--players"], ["game", "--seed"], ["simulate", "official", "--games"]])
def test_a_5000_digit_number_argument_is_quoted_in_part(capsys, command):
    err = refused_argument(capsys, [*command, "7" * 5000])
    assert f"{command[-1]} '7777" in err and "(5,000 characters) is not a whole number" in err and len(err) < 200, err


def test_a_4000_digit_seat_in_a_position_is_named_by_its_size(tmp_path, capsys):
    path = tmp_path / "seat.yaml"
    path.write_text('hands: ["1/2 2/3", "5/1", "7/1"]\nactive: "5/3"\nowner: ' + "9" * 4000 + "\n")
    err = one_line_error(capsys, ["legal", str(path)])
    assert f"{path}:3: $.owner: seat a 13,288-bit number does not exist with 3 players" in err


# --------------------------------------------------------------------------- extends reads only specs


SECRET_LINES = [line for line in ACCOUNTS.read_text().splitlines() if line]


def _leaks(text: str, lines: list[str]) -> list[str]:
    """Lines of the file, or their first two fields, that appear in `text`."""
    return [line for line in lines if line in text or ":".join(line.split(":")[:2]) + ":" in text]


def test_extends_says_the_same_of_every_file_that_is_not_a_spec(tmp_path, capsys):
    """No count of keys or lines (the line count of /etc/shadow was shown), no value: one fixed reason for any file."""
    said = set()
    for name, text in [("shadow", "".join(f"user{i}:$6$salt$hash{i}:19000:0:99999:7:::\n" for i in range(37))),
                       ("keys.yaml", "".join(f"key{i}: value{i}\n" for i in range(23))), ("one.yaml", "players: secret\n")]:
        (tmp_path / name).write_text(text)
        (tmp_path / "spec.yaml").write_text(f"extends: ./{name}\nname: curious\n")
        err = one_line_error(capsys, ["validate", str(tmp_path / "spec.yaml")])
        said.add(err.replace(name, "FILE"))
        told = err.replace(str(tmp_path), "TMP")  # pytest's folder name may hold any digits
        assert "37" not in told and "23" not in told and "secret" not in told and "value" not in told
    assert len(said) == 1, said


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_extends_of_a_device_or_a_pipe_says_what_it_is_without_reading(tmp_path, capsys, kind):
    if kind == "device":
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero here")
        parent, what = "/dev/zero", "a device"
    else:
        os.mkfifo(tmp_path / "pipe")  # nobody writes: opening it for reading would wait for ever
        parent, what = "./pipe", "a named pipe (FIFO)"
    (tmp_path / "spec.yaml").write_text(f"extends: {parent}\nname: special\n")
    err = one_line_error(capsys, ["validate", str(tmp_path / "spec.yaml")])
    assert f"spec.yaml:1: $.extends: cannot extend '{parent}': it is {what}, not a spec file, so it is not read" in err


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["game", "--variant"], ["diff", "official"], ["simulate"]])
@pytest.mark.parametrize("target", ["copy", "etc"])
def test_no_line_of_a_file_that_is_not_a_spec_is_ever_shown(tmp_path, capsys, command, target):
    if target == "etc":
        if not Path("/etc/passwd").is_file():
            pytest.skip("no /etc/passwd here")
        parent, lines = "/etc/passwd", [line for line in Path("/etc/passwd").read_text().splitlines() if line]
    else:
        (tmp_path / "passwd").write_text(ACCOUNTS.read_text())
        parent, lines = "./passwd", SECRET_LINES
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"extends: {parent}\nname: curious\n")
    extra = ["--games", "1"] if command == ["simulate"] else []
    err = one_line_error(capsys, [*command, str(spec), *extra])
    assert f"$.extends: '{parent}' is not a variant spec" in err
    assert _leaks(err, lines) == []


@pytest.mark.parametrize("name", ["extends_accounts.yaml", "extends_hashes.yaml", "extends_not_yaml.yaml", "extends_spec_shaped.yaml"])
def test_the_corpus_parents_that_are_not_specs_are_never_quoted(capsys, name):
    parent = {"extends_accounts.yaml": "accounts", "extends_hashes.yaml": "hashes", "extends_not_yaml.yaml": "token.ini",
              "extends_spec_shaped.yaml": "settings.yaml"}[name]
    lines = [line for line in (BAD_SPECS / "lib" / parent).read_text().splitlines() if line and not line.startswith("#")]
    fields = [field.strip(' "') for line in lines for field in line.replace("=", ":").split(":") if len(field.strip(' "')) >= 6]
    assert main(["validate", str(BAD_SPECS / name)]) == 1
    out, err = capsys.readouterr()
    assert _leaks(out + err, lines) == [] and [f for f in fields if f in out + err] == []


# --------------------------------------------------------------------------- the engine protocol corpus


def _run_engine(text: str) -> list[dict]:
    out = io.StringIO()
    assert serve(io.StringIO(text), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("name", sorted(PROTOCOL_CORPUS))
def test_the_bad_protocol_corpus(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the corpus names spec files from the repository root
    case = PROTOCOL_CORPUS[name]
    lines = [line for line in (PROTOCOL / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    answers = _run_engine("\n".join(lines) + '\n{"id": "after", "cmd": "hello"}\n')
    assert len(answers) == len(lines) + 1, "one answer per line"
    *setup, bad, after = answers
    assert all(answer["ok"] for answer in setup), setup
    assert bad["ok"] is False and case["error"] in bad["error"], f"{name} ({case['case']}): {bad}"
    assert len(json.dumps(bad)) < 600, "the answer quotes an excerpt, never the input"
    assert after == {**after, "id": "after", "ok": True}, "the engine keeps serving"
    for secrets in ("accounts", "hashes"):
        if secrets in name:
            lines = (BAD_SPECS / "lib" / secrets).read_text().splitlines()
            assert _leaks(json.dumps(answers), lines) == []


def test_bytes_that_are_not_utf_8_are_refused_by_the_engine_not_echoed():
    engine = subprocess.run([sys.executable, "-m", "scoutlab.cli", "engine"], input=b'{"id": "\xff", "cmd": "hello"}\n'
                            b'{"id": 2, "cmd": "hello"}\n', capture_output=True, timeout=60)
    first, second = map(json.loads, engine.stdout.decode("utf-8").splitlines())
    assert first == {"id": None, "ok": False, "error": "not a JSON line: it is not UTF-8 text"}  # it echoed "\udcff"
    assert second["id"] == 2 and second["ok"]


def test_a_byte_order_mark_before_a_request_is_not_part_of_it():
    [answer] = _run_engine('\ufeff{"id": 1, "cmd": "hello"}\n')  # Python's "Unexpected UTF-8 BOM"
    assert answer["ok"] and answer["id"] == 1


def test_the_protocol_corpus_lists_every_file():
    assert sorted(PROTOCOL_CORPUS) == sorted(p.name for p in PROTOCOL.glob("*.jsonl"))


def test_an_over_long_line_is_skipped_and_answered():
    answers = _run_engine("x" * (MAX_PROTOCOL_LINE + 10) + '\n{"id": 1, "cmd": "hello"}\n')
    assert answers[0] == {"id": None, "ok": False,
                          "error": f"request line ignored: more than the limit of {MAX_PROTOCOL_LINE:,} characters"}
    assert answers[1]["id"] == 1 and answers[1]["ok"]


def test_an_endless_line_without_newline_is_answered_once():
    answers = _run_engine("[" * (3 * MAX_PROTOCOL_LINE))
    assert [a["error"] for a in answers] == [f"request line ignored: more than the limit of {MAX_PROTOCOL_LINE:,} characters"]


def test_the_issues_command_answers_and_keeps_serving():
    """`python3 -c "print('['*100000)" | scoutlab engine`, then a hello, as real processes."""
    engine = subprocess.run(
        [sys.executable, "-m", "scoutlab.cli", "engine"], input="[" * 100_000 + '\n{"id": 2, "cmd": "hello"}\n',
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert engine.returncode == 0 and "Traceback" not in engine.stderr
    first, second = map(json.loads, engine.stdout.splitlines())
    assert first == {"id": None, "ok": False, "error": "not a request: nested deeper than 64 levels of lists and mappings"}
    assert second["id"] == 2 and second["ok"]


@pytest.mark.parametrize("command, said", [
    (["game", "--bots", "b" * 5000], "unknown bot 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'... (5,000 characters)"),
    (["game", "--bots", "random:seed=" + "s" * 5000], "bot 'random'"),
    (["game", "--bots", "skilled:weights=" + "w" * 5000], "bot 'skilled': option weights='wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww'... (5,000 characters) must be one of variant, official"),
    (["tune", "official", "--players", "9" * 5000], "--players '99999999999999999999...': this variant is for 3, 4, 5 players"),
    (["tune", str(ACCOUNTS)], "$: a variant spec is a mapping of keys such as schema_version, name and players, not a string"),
    (["simulate", "official:" + "9" * 5000], "official: 99999999999999999999... players is more than any variant seats"),
    (["legal", str(BAD_SPECS / "lib" / "hashes")], "this is not a position: none of its top-level keys is a position's"),
    (["replay", str(ACCOUNTS)], "not valid JSON"),
    (["validate", str(ACCOUNTS)], "$: a variant spec is a mapping of keys such as schema_version, name and players, not a string"),
    (["rules", str(BAD_SPECS / "lib" / "hashes")], "$: this is not a variant spec: none of its top-level keys is a spec's key"),
    # each part of the path cost a step of resolving it: 300,000 parts took 34 s
    (["validate", "a/" * 3000 + "x.yaml"], "$: a path of 6,006 characters names no file (at most 4,096)"),
    # a line break split the error into three lines; a right-to-left override reordered it
    (["sweep", "two-player", "--set", "deal.hand_size.2=9\n10", "--games", "2"], "--set deal.hand_size.2=9\\n10: $.deal"),
    (["sweep", "two-player", "--set", "deal.hand_size.2=9\u202e,10", "--games", "2"], "--set deal.hand_size.2=9\\u202e: $.deal"),
])
def test_long_or_foreign_arguments_are_one_short_line(capsys, command, said):
    err = one_line_error(capsys, command)
    hashes = (BAD_SPECS / "lib" / "hashes").read_text().splitlines()
    assert said in err and _leaks(err, SECRET_LINES + hashes) == []


def test_a_variant_path_of_300_000_parts_is_refused_at_once_by_the_engine():
    # Refused before it is resolved (which took 34 s, a step per part, to say "File name too long"), quoted short.
    [answer] = _run_engine(json.dumps({"cmd": "new_game", "variant": "a/" * 300_000 + "x.yaml"}) + "\n")
    assert not answer["ok"] and answer["error"].endswith(": $: a path of 600,006 characters names no file (at most 4,096)")
    assert len(answer["error"]) < 200  # it quoted 2,000 characters


def test_a_long_id_is_not_echoed():
    [answer] = _run_engine(json.dumps({"id": "i" * 5000, "cmd": "hello"}) + "\n")
    assert answer["ok"] and answer["id"] is None
    [answer] = _run_engine(json.dumps({"id": {"n": 7}, "cmd": "hello"}) + "\n")
    assert answer["id"] == {"n": 7}, "a short id of any JSON kind is echoed as it came"


def test_an_error_answer_is_cut_at_2000_characters(tmp_path):
    spec = tmp_path / "typos.yaml"
    spec.write_text("extends: official\nname: typos\n" + "".join(f"knob_{i}: 1\n" for i in range(200)))
    [answer] = _run_engine(json.dumps({"cmd": "new_game", "variant": str(spec)}) + "\n")
    assert answer["ok"] is False and answer["error"].startswith(f"{spec}:3: $.knob_0: unknown key 'knob_0'")
    assert len(answer["error"]) < 2100 and answer["error"].endswith("more characters)")


@pytest.mark.parametrize("text", ["²/3", "3/¹⁰", "٣/٤"])
def test_a_card_in_other_digits_is_refused_in_the_cards_own_words(text):
    # str.isdigit() passes '²' and Arabic-Indic digits; int() refuses the first with Python's own text.
    from scoutlab.engine.cards import parse_card

    with pytest.raises(ValueError, match="is not a card: write it as top/bottom"):
        parse_card(text)


# --------------------------------------------------------------------------- a sweep's finds, each one line

@pytest.mark.parametrize("delay", ["inf", "nan", "-1", "1e10"])
def test_a_pause_that_cannot_be_slept_is_refused_before_the_match(capsys, delay):
    err = one_line_error(capsys, ["play", "--bots", "random", "--seed", "1", "--delay", delay])
    assert "--delay" in err and "from 0 to 60 seconds" in err


@pytest.mark.parametrize("kind", ["device", "fifo", "too big"])
def test_a_network_weights_file_is_read_capped_and_never_from_a_pipe(tmp_path, capsys, kind):
    if kind == "device":
        path = "/dev/zero"  # endless: read whole, it filled 2.4 GB in 6 s
    elif kind == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    else:
        path = str(tmp_path / "big.json")
        with open(path, "wb") as handle:
            handle.truncate(20_000_001)  # sparse: the size is read, not the bytes
    err = one_line_error(capsys, ["game", "--quiet", "--bots", f"network:weights={path}"])
    assert "bot 'network'" in err
    assert ("more than the limit of 20 MB" if kind == "too big" else "not a regular file") in err


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["game", "--variant"]])
def test_a_spec_with_thousands_of_problems_shows_twenty_and_a_count(tmp_path, capsys, command):
    spec = tmp_path / "many.yaml"
    spec.write_text("extends: official\nname: many\n" + "".join(f"u{i}: 1\n" for i in range(5000)))
    assert main([*command, str(spec)]) == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 21 and lines[-1] == "... and 4,980 more problems", lines[-3:]
    assert "u0" in lines[0] and len(err) < 10_000  # was 5,000 lines, 1.36 MB


def test_a_position_with_thousands_of_problems_shows_twenty_and_a_count(tmp_path, capsys):
    position = tmp_path / "many.yaml"
    position.write_text('hands: ["' + " ".join(["1/2"] * 5000) + '", "5/1 6/2", "7/1 6/9"]\n')  # 4,999 repeats
    assert main(["legal", str(position)]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 21 and lines[-1].endswith("more problems"), lines[-3:]


def test_a_recorded_hand_of_a_100000_character_card_is_quoted_in_part(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["game", "--quiet", "--seed", "3", "--record", str(path)]) == 0
    capsys.readouterr()
    record = json.loads(path.read_text())
    record["rounds"][0]["deal"][0][0] = "1" * 100_000 + "/2"
    path.write_text(json.dumps(record))
    err = one_line_error(capsys, ["replay", "--quiet", str(path)])  # printed 100 KB
    assert "P1's hand as dealt differs" in err and "(100,046 characters)" in err


def test_a_card_of_5000_digits_is_refused_in_the_cards_own_words(tmp_path, capsys):
    position = tmp_path / "huge.yaml"
    position.write_text('hands: ["' + "9" * 5000 + '/1 2/3", "5/1 6/2", "7/1 6/9"]\n')
    err = one_line_error(capsys, ["legal", str(position)])  # was Python's own "Exceeds the limit (4300 digits)"
    assert "'... (5,002 characters) is not in the deck of variant 'official': numbers run from 1 to 10" in err and "4300" not in err


@pytest.mark.parametrize("text", ["0/2", "2/32", "9" * 5000 + "/1"])
def test_a_card_with_no_deck_known_is_refused_with_the_notation_s_numbers(text):
    with pytest.raises(ValueError, match=r"is not a card: numbers run from 1 to 31$"):
        parse_card(text)


@pytest.mark.parametrize("line, path, code", [
    ('name: "a\\e[31mred"', "$.name", "#x001b"),
    ('name: "\\ud800"', "$.name", "#xd800"),  # passed validate, then no command could print it
    ('description: "one\\ntwo \\a"', "$.description", "#x0007"),
    ('"\\e[2Jevil": 1', "$", "#x001b"),
])
def test_an_escape_that_writes_a_control_character_or_a_lone_surrogate_is_refused(tmp_path, capsys, line, path, code):
    spec = tmp_path / "escape.yaml"
    spec.write_text(f"extends: official\n{line}\n" + ("" if line.startswith("name") else "name: x\n"))
    assert main(["validate", str(spec)]) == 1
    err = capsys.readouterr().err
    assert f"escape.yaml:2: {path}: character {code} (a control character or a lone surrogate)" in err, err
    assert "\x1b" not in err and "\x07" not in err, "nothing raw reaches the terminal"


@pytest.mark.parametrize("where, value, code", [
    (("bots", 0), "random\x1b[2J", "#x001b"),
    (("bots", 1), "\n\nFAKE", "#x000a"),  # a forged line in replay's header
    (("bots", 2), "\ud800", "#xd800"),
])
def test_a_record_holding_a_control_character_is_refused_naming_where(tmp_path, capsys, where, value, code):
    path = tmp_path / "game.json"
    assert main(["game", "--quiet", "--seed", "3", "--record", str(path)]) == 0
    capsys.readouterr()
    record = json.loads(path.read_text())
    record[where[0]][where[1]] = value
    path.write_text(json.dumps(record))
    err = one_line_error(capsys, ["replay", str(path)])
    assert f"$.{where[0]}[{where[1]}]: character {code}" in err and "\x1b" not in err


def test_a_record_of_a_variant_whose_description_runs_over_lines_replays(tmp_path, capsys):
    spec = tmp_path / "long.yaml"
    spec.write_text("extends: official\nname: long\ndescription: |\n  one line\n  and another\n")
    path = tmp_path / "game.json"
    assert main(["game", "--quiet", "--variant", str(spec), "--seed", "3", "--record", str(path)]) == 0
    assert "\n" in json.loads(path.read_text())["variant"]["description"]
    assert main(["replay", "--quiet", str(path)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("command, said", [
    (["game", "--quiet", "--bots", "mcts:iterations=1000000"], "option iterations=1000000 must be at most 100,000"),
    (["game", "--quiet", "--bots", "mcts:seconds=inf"], "option seconds=inf must be a finite number"),
    (["game", "--quiet", "--bots", "mcts:spread=nan"], "option spread=nan must be a finite number"),
    (["game", "--quiet", "--bots", "heuristic:hold_samples=1000000"], "option hold_samples=1000000 must be at most 10,000"),
    (["game", "--quiet", "--bots", "skilled:card=nan"], "bot 'skilled': option card=nan must be a finite number"),
    (["game", "--quiet", "--bots", "skilled:sns_scouts=-1"], "option sns_scouts=-1 must be >= 0"),
    (["game", "--quiet", "--bots", "network:temperature=nan,sample=true"], "bot 'network': option temperature=nan"),
    (["simulate", "official", "--games", "1" + "0" * 119], "--games must be from 1 to 1,000,000,000, got a 396-bit number"),
    (["simulate", "official", "--workers", "100000"], "--workers must be at most 10,000"),
    (["tune", "official", "--quick", "--workers", "0"], "--workers must be from 1 to 1,000, got 0"),
    (["serve", "--bot-delay", "-1"], "--bot-delay must be from 0 to 60,000 milliseconds, not -1"),  # went into every page
    (["serve", "--bot-delay", "9" * 40], "--bot-delay must be from 0 to 60,000 milliseconds, not a 133-bit number"),
    (["serve", "--port", "9" * 20], "--port must be a whole number from 1 to 65535, not 99999999999999999999"),
])
def test_a_budget_that_would_never_finish_or_is_not_a_number_is_refused(capsys, command, said):
    assert said in one_line_error(capsys, command)  # each ran on (for hours, or silently) or played with nan


@pytest.mark.parametrize("path", ["directory", "/dev/zero"])
def test_a_position_path_that_is_not_a_file_says_so(tmp_path, capsys, path):
    path = str(tmp_path) if path == "directory" else path
    err = one_line_error(capsys, ["legal", path])  # was read as YAML text: "there is no file named" it
    said = "this is a directory, not a position file" if path == str(tmp_path) else "cannot read the file: not a regular file"
    assert f"{path}: $: {said}" in err and "no file named" not in err and "Errno" not in err


def test_options_given_to_the_random_bot_are_quoted_as_written(capsys):
    err = one_line_error(capsys, ["game", "--quiet", "--bots", "random:="])
    assert "bot 'random' takes no options, got '='" in err and "arg" not in err  # was "got ['arg']"


@pytest.mark.parametrize("command", [["rules", "official"], ["variants"], ["play", "--bots", "random"]])
def test_a_language_not_offered_is_refused_everywhere(capsys, command):
    err = one_line_error(capsys, [*command, "--lang", "xx"])  # rules and variants fell back to English silently
    assert "--lang 'xx': the languages are en, ar, fa, el, bg" in err


@pytest.mark.parametrize("command, said", [
    (["game", "--quiet", "--record", ""], "--record '': give the name of a file"),  # ran, and wrote nothing
    (["game", "--quiet", "--record", "-"], "--record '-': give the name of a file"),  # wrote a file named '-'
    (["game", "--quiet", "--record", "/"], "cannot write --record /: it is a folder"),  # after the whole game
    (["game", "--quiet", "--record", "/proc/x.json"], "cannot write --record /proc/x.json: no file can be made in /proc"),
    (["game", "--quiet", "--record", "/dev/full"], "cannot write the record to '/dev/full': No space left on device"),
    (["simulate", "official", "--games", "2", "--json", ""], "--json needs a file name, not ''"),
    (["simulate", "official", "--games", "2", "--csv", "/"], "cannot write --csv /: it is a folder"),
    (["simulate", "official", "--games", "2", "--json", "/proc/x"], "cannot write --json /proc/x: no file can be made in /proc"),
    (["simulate", "official", "--games", "2", "--json", "a.json", "--csv", "./a.json"], "--json and --csv both name ./a.json"),
    (["simulate", "official", "--games", "2", "--json", "/dev/full"], "/dev/full: No space left on device"),
])
def test_an_output_that_cannot_be_written_is_named(capsys, command, said):
    if "/dev/full" in command and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert said in one_line_error(capsys, command)


@pytest.mark.parametrize("option", ["--games-csv", "--rounds-csv", "--games-parquet"])
def test_a_full_disk_under_the_per_game_files_is_one_line_naming_the_file(option):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    run = subprocess.run([sys.executable, "-m", "scoutlab.cli", "sweep", "two-player", "--set", "deal.hand_size.2=9,10",
                          "--games", "2", "--workers", "1", "--strong", "none", option, "/dev/full"],
                         capture_output=True, text=True, timeout=120)
    # it was "No space left on device" without the file, then a traceback as the file was collected (pyarrow: its own)
    assert run.returncode == 1 and run.stderr == "scoutlab sweep: cannot write /dev/full: No space left on device\n"


@pytest.mark.parametrize("command, said", [
    (["game", "--quiet", "--players", "0"], "is for 3, 4, 5 players, not 0"),  # 0 meant the default
    (["play", "--players", "0"], "is for 3, 4, 5 players, not 0"),
    (["play", "--level", ""], "unknown level ''"),  # '' meant the default
])
def test_an_empty_or_zero_choice_is_refused_not_taken_for_the_default(capsys, command, said):
    assert said in one_line_error(capsys, command)


@pytest.mark.parametrize("variants, said", [
    (["official", "official"], "official is named twice"),  # ran, and compared it with itself
    ([f"official:{3 + i % 3}" for i in range(13)], "compare reads at most 12 variants at once, got 13"),  # 50 took 40 s
])
def test_compare_refuses_a_variant_twice_and_more_than_it_can_read(capsys, variants, said):
    assert said in one_line_error(capsys, ["compare", *variants, "--games", "4"])

def test_a_tuning_cache_that_cannot_hold_files_is_refused_before_the_search(tmp_path, monkeypatch, capsys):
    pytest.importorskip("cma")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("SCOUTLAB_CACHE_DIR", str(blocked))
    err = one_line_error(capsys, ["tune", "official", "--players", "3", "--quick"])  # failed after the whole search
    assert f"cannot keep tunings in {blocked / 'tuned'}" in err and "SCOUTLAB_CACHE_DIR" in err


@pytest.mark.parametrize("command", [["tune", "house-wrap", "--players", "3", "--quick"],
                                     ["compare", "official", "{spec}", "--tune", "--games", "2"]])
def test_a_folder_where_the_tuning_s_file_goes_is_refused_before_the_search(tmp_path, monkeypatch, capsys, command):
    from scoutlab.bots import tuned
    from scoutlab.rules import load_rules

    pytest.importorskip("cma")
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: official\nname: house\nscoring: {captured_card: 2}\n")
    monkeypatch.setenv("SCOUTLAB_CACHE_DIR", str(tmp_path / "cache"))
    rules = load_rules("house-wrap" if command[0] == "tune" else str(spec))
    where = tuned.cache_path(tuned.play_digest(rules), 3)
    where.mkdir(parents=True)  # a folder where the file goes: said after the whole search, in the system's words
    err = one_line_error(capsys, [part.format(spec=spec) for part in command])
    assert f"cannot keep the tuning in {where}: something other than a file is there" in err


def test_a_tuning_seed_its_search_cannot_take_is_refused_before_the_banner(capsys):
    pytest.importorskip("cma")
    err = one_line_error(capsys, ["tune", "two-player", "--quick", "--seed", str(2**32)])  # numpy's words, mid-run
    assert err == "scoutlab tune: --seed must be from 0 to 1,000,000,000, got 4294967296\n"  # and no banner before it


def test_a_match_database_in_no_folder_is_named_as_such(tmp_path):
    from scoutlab.web.store import MatchStore, StoreError

    with pytest.raises(StoreError, match="there is no folder"):  # said "not a scoutlab match database"
        MatchStore(tmp_path / "nowhere" / "matches.sqlite3")

def test_an_unknown_target_metric_is_named_by_its_own_option(capsys):
    err = one_line_error(capsys, ["sweep", "official", "--set", "scoring.captured_card=1,2", "--target", "nonexist=3"])
    assert err.startswith("scoutlab sweep: --target: unknown metric 'nonexist'")  # said --metrics


def test_a_sweep_value_of_nested_aliases_is_refused_at_once(capsys):
    # Read as a spec is read, with its cap on values: PyYAML alone shares the aliases, and the merged spec's checks then walked 10^5 copies.
    bomb = "[&a [1,1,1,1,1,1,1,1,1,1], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], " \
           "&d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]]"
    err = one_line_error(capsys, ["sweep", "official", "--set", f"scoring.captured_card={bomb}"])
    assert "has a YAML anchor, &a; write the value itself" in err and "characters)" in err


@pytest.mark.parametrize("value, said", [
    ("&a 9", "the value '&a 9' has a YAML anchor, &a"),  # played 9, and labelled the point hand_size.2=&a 9
    ("9,*a", "the value '*a' has a YAML alias, *a"),  # was "cannot read the value"
    ("!!str 9", "the value '!!str 9' has a YAML tag, !!str"),  # the text '9', labelled !!str 9
    ("[!!int 9]", "the value '[!!int 9]' has a YAML tag, !!int"),
    ("! 9", "the value '! 9' has a YAML tag, !"),
])
def test_a_sweep_value_with_an_anchor_an_alias_or_a_tag_is_refused(capsys, value, said):
    err = one_line_error(capsys, ["sweep", "two-player", "--set", f"deal.hand_size.2={value}", "--games", "2"])
    assert err == (f"scoutlab sweep: --set deal.hand_size.2: {said}; write the value itself "
                   "(anchors, aliases and tags are for spec files)\n")


def test_validate_names_a_long_or_escaped_path_in_a_line_a_terminal_can_show(capsys):
    long_path = "/nowhere/" + "a" * 6_000 + ".yaml"
    assert main(["validate", long_path, "/nowhere/\x1b[2J.yaml"]) == 1
    err = capsys.readouterr().err
    assert max(len(line) for line in err.splitlines()) < 600 and "a path of 6,014 characters" in err  # printed whole
    assert "\x1b" not in err and "\\x1b[2J" in err  # a terminal would have cleared its screen


@pytest.mark.parametrize("command, said", [
    (["validate", "{dir}/bad\nname.yaml"], "bad\\nname.yaml:2: $.deal.hand_size.4: dealing 40 cards"),
    (["game", "--players", "4", "--variant", "{dir}/bad\nname.yaml"], "bad\\nname.yaml:2: $.deal.hand_size.4"),
    (["compare", "official", "{dir}/bad\nname.yaml"], "bad\\nname.yaml:2: $.deal.hand_size.4"),
    (["replay", "{dir}/no\nsuch.json"], "no\\nsuch.json: no such file"),
    (["replay", "{dir}/bad\rrecord.json"], "bad\\rrecord.json: not valid JSON"),
    (["simulate", "official", "--json", "{dir}/no\nfolder/x.json"], "there is no folder {dir}/no\\nfolder"),
])
def test_a_line_break_in_a_file_s_name_does_not_split_the_line(tmp_path, capsys, command, said):
    (tmp_path / "bad\nname.yaml").write_text("extends: official\ndeal: {hand_size: {4: 40}}\nname: bad\n")
    (tmp_path / "bad\rrecord.json").write_text("{")
    err = one_line_error(capsys, [part.format(dir=tmp_path) for part in command])
    assert said.format(dir=tmp_path) in err


@pytest.mark.parametrize("command", [["rules", "--lang", "ar", "official"], ["variants", "--lang", "fa"]])
def test_a_terminal_that_cannot_show_the_output_is_told_so_in_one_line(command):
    run = subprocess.run([sys.executable, "-m", "scoutlab.cli", *command], capture_output=True, timeout=60,
                         env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert run.returncode == 1 and run.stderr.decode("ascii") == (  # it was Python's codec error
        f"scoutlab {command[0]}: this terminal's encoding (ascii) cannot show the output; set a UTF-8 locale "
        "(for example LANG=C.UTF-8) or PYTHONIOENCODING=utf-8\n")


# --------------------------------------------------------------------------- argparse's refusals, each one line

@pytest.mark.parametrize("command, said", [
    # each was two lines, a usage line and `scoutlab: error: ...`; an unknown option of a command was scoutlab's own
    (["compare", "official", "two-player", "--nosuch"],
     "scoutlab compare: unrecognized option --nosuch (scoutlab compare --help lists the options)"),
    (["--nosuch"], "scoutlab: unrecognized option --nosuch (scoutlab --help lists the options)"),  # said COMMAND was required
    (["--nosuch", "variants"], "scoutlab: unrecognized option --nosuch (scoutlab --help lists the options)"),
    (["game", "--sed", "3"], "scoutlab game: unrecognized option --sed; did you mean --seed? (scoutlab game --help lists the options)"),
    (["game", "--token=s3cret"], "scoutlab game: unrecognized option --token (scoutlab game --help lists the options)"),
    (["game", "--xa", "--xb", "--xc", "--xd"], "scoutlab game: unrecognized options --xa, --xb, --xc and 1 more (scoutlab game --help lists the options)"),
    (["game", "extra"], "scoutlab game: unexpected argument 'extra' (scoutlab game --help lists the arguments)"),
    (["game", "-5"], "scoutlab game: unexpected argument '-5' (scoutlab game --help lists the arguments)"),
    (["compare"], "scoutlab compare: missing VARIANT (scoutlab compare --help lists the arguments)"),
    (["diff"], "scoutlab diff: missing A and B (scoutlab diff --help lists the arguments)"),
    (["play", "--color", "red"], "scoutlab play: --color 'red': the choices are auto, always, never"),
    (["play", "--color", "alway"], "scoutlab play: --color 'alway': the choices are auto, always, never; did you mean 'always'?"),
    (["simulate", "official", "--backend", "threads"], "scoutlab simulate: --backend 'threads': the choices are pool, ray"),
    (["game", "--seed", "x"], "scoutlab game: --seed 'x' is not a whole number"),
    (["play", "--delay", "soon"], "scoutlab play: --delay 'soon' is not a number"),
    (["simulate", "official", "--players", "many"], "scoutlab simulate: --players: expected a number of players or 'all', got 'many'"),
    (["game", "--seed"], "scoutlab game: --seed needs a value"),
    (["game", "--quiet=yes"], "scoutlab game: --quiet takes no value, got 'yes'"),
    (["simulate", "official", "--w", "2"], "scoutlab simulate: --w could be --workers or --weak: write more of it"),
    (["compar"], "scoutlab: unknown command 'compar'; did you mean 'compare'? (scoutlab --help lists the commands)"),
    (["xyzzy"], "scoutlab: unknown command 'xyzzy' (scoutlab --help lists the commands)"),
    ([], "scoutlab: give a command (scoutlab --help lists the commands)"),
    # what the terminal would obey or break the line at is shown as an escape
    (["game", "x\x1b[2J\ny"], "scoutlab game: unexpected argument 'x\\x1b[2J\\ny' (scoutlab game --help lists the arguments)"),
    (["game", "--x\u202e\ny"], "scoutlab game: unrecognized option '--x\\u202e\\ny' (scoutlab game --help lists the options)"),
])
def test_a_mistaken_argument_is_one_line_naming_its_command(capsys, command, said):
    assert refused_argument(capsys, command) == said + "\n"


def test_argparse_s_words_in_another_language_still_make_one_line_naming_the_command(capsys, monkeypatch):
    # argparse translates through gettext's "argparse" domain: no catalog ships today, but one would change its words
    monkeypatch.setattr(argparse, "_", lambda text: f"\u00fcbersetzt: {text}")
    err = refused_argument(capsys, ["play", "--color", "red"])
    assert err.startswith("scoutlab play: \u00fcbersetzt: argument --color: ") and err.endswith(" (scoutlab play --help lists the options)\n")


def test_ctrl_c_while_the_commands_load_is_one_line(monkeypatch, capsys):
    """Building the parser imports every command; a Ctrl-C then printed a traceback from outside main's guard."""
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr("scoutlab.cli.build_parser", interrupted)
    assert main(["compare", "official", "two-player"]) == 130
    assert capsys.readouterr().err == "scoutlab: interrupted\n"
