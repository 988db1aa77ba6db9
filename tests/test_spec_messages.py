"""Spec problems in the player's language: every sentence of the bad-spec corpus has a template.

The spec layer words a problem once, in English; `scoutlab.text.spec_messages` re-says it in
the player's language by its template (see docs/i18n.md). A new problem sentence with no
template would reach a Persian player in English: this corpus test fails first.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoutlab.spec import SpecError, load_spec_text, validate_paths
from scoutlab.text.i18n import LANGUAGES, gettext_for
from scoutlab.text.spec_messages import is_known, translate_message, translate_problem

BAD = Path(__file__).resolve().parent / "bad_specs"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def corpus_messages() -> list[str]:
    messages = [p.message for p in validate_paths(sorted(BAD.glob("*.yaml")))]
    # Problems found when the spec is compiled: the plugin host and the end conditions.
    for text in ("extends: official\nname: x\nend_conditions: [hand_emptyed]\n",
                 "extends: official\nname: x\nplugins: [{name: noop, config: {a: 1}}]\n"):
        try:
            load_rules_text(text)
        except SpecError as exc:
            messages += [p.message for p in exc.problems]
    return sorted(set(messages))


def load_rules_text(text: str):
    from scoutlab.web.matches import rules_for

    return rules_for(load_spec_text(text, "pasted.yaml"))


MESSAGES = corpus_messages()


def test_the_corpus_has_problems_of_every_layer():
    assert len(MESSAGES) >= 25
    assert any(m.startswith("unknown end condition") for m in MESSAGES)


@pytest.mark.parametrize("message", MESSAGES)
def test_every_problem_of_the_corpus_has_a_template(message):
    assert is_known(message), f"add a template for this sentence to scoutlab.text.spec_messages: {message!r}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_problem_is_said_in_the_language_with_its_values_kept(lang):
    _ = gettext_for(lang)
    for message in MESSAGES:
        said = translate_message(message, _)
        assert said != message, message
        for value in ("'alowed'", "'allowed'", "'oficial'", "'lots'", "'9/9'", "'3/11'"):
            if value in message:
                assert value in said, (value, said)


def test_english_is_the_sentence_itself_and_unknown_sentences_pass_through():
    english = gettext_for("en")
    assert all(translate_message(m, english) == m for m in MESSAGES)
    assert translate_message("a sentence no template knows", gettext_for("fa")) == "a sentence no template knows"


@pytest.mark.parametrize(("message", "carried"), [
    ("must be at least 0, got -1", ["0", "-1"]),  # unisolated, -1 reads 1- in Arabic
    ("character #x001b (a control character or a lone surrogate) is not allowed in text", ["#x001b"]),
    ("expected a whole number, got the string 'two'", ["'two'"]),  # inside a phrase said again
    ("unknown key 'scorin'; did you mean 'scoring'?", ["'scorin'", "'scoring'"]),  # and in an ending
])
def test_values_as_written_keep_their_order_in_right_to_left_languages(message, carried):
    isolated = [f"\u2066{value}\u2069" for value in carried]
    for lang in ("ar", "fa"):
        said = translate_message(message, gettext_for(lang))
        assert all(value in said for value in isolated), (lang, said)
        assert said.count("\u2066") == len(carried), said  # the translated words themselves are not isolated
    for lang in ("en", "el", "bg"):
        assert "\u2066" not in translate_message(message, gettext_for(lang))


def test_a_problem_keeps_its_file_line_and_path():
    with pytest.raises(SpecError) as caught:
        load_spec_text("extends: official\nname: x\nscot: {}\n", "pasted.yaml")
    said = translate_problem(caught.value.problems[0], gettext_for("el"))
    assert said == "pasted.yaml:3: $.scot: άγνωστο κλειδί 'scot'· μήπως εννοείς 'scout';"


# -- the newer sentences: extends refusals, inherited values, plugins and their end conditions ----------------


def _problems(load, *args) -> list[str]:
    try:
        load(*args)
    except SpecError as exc:
        return [p.message for p in exc.problems]
    return []


def newer_messages(tmp_path) -> list[str]:
    """Each sentence of these code paths as the spec layer words it, made by the real code, not copied here."""
    import os
    import socket

    from scoutlab.host.hookspecs import EndCondition, hookimpl
    from scoutlab.spec import load_spec
    from scoutlab.testing import installed_plugin, rules_with

    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    os.symlink(tmp_path / "loop", tmp_path / "loop")  # stat fails with ELOOP: "cannot read the file"
    (tmp_path / "notes.yaml").write_text("name: notes\ncolour: red\n")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "sock"))
    messages = []
    for parent in ("./fifo", "/dev/null", "./sock", "./folder", "./loop", "./notes.yaml"):
        child = tmp_path / "child.yaml"
        child.write_text(f"schema_version: 1\nextends: {parent}\nname: child\n")
        messages += _problems(load_spec, child)
    messages += _problems(lambda: load_spec_text("extends: [official]\nname: x\n", "pasted.yaml"))
    messages += _problems(lambda: load_spec_text("extends: official\nname: x\ndeck: {highest: 8}\n", "pasted.yaml"))

    class TenTurns:
        @hookimpl
        def scoutlab_end_conditions(self):
            return {"ten_turns": EndCondition(lambda state: state.turn >= 10, False, "the round ends after ten turns")}

    with installed_plugin("ten-turns", TenTurns()), pytest.warns(Warning):
        messages += [w.message for w in rules_with("official", ["ten-turns"]).warnings]
    with installed_plugin("ten-turns", TenTurns()):
        messages += _problems(lambda: load_rules_text("extends: official\nname: x\nend_conditions: [hand_emptied, ten_turns]\n"))
    return messages


ENDINGS = ("(FIFO)", "a device", "a socket", "cannot read the file", "not a variant spec", "expected a variant name",
           "inherited from", "offers the end condition", "the installed plugin")


def _english_runs(text: str) -> set[str]:
    """Runs of three English words, with quoted values, keys, paths and the notation left out."""
    text = re.sub(r"'[^']*'|\$\S*|\[[^\]]*\]|\b\w+_\w+\b|scoutlab validate|schema_version: 1|YAML|FIFO", " | ", text)
    words = re.findall(r"[A-Za-z]+|\|", text)
    return {" ".join(words[i:i + 3]) for i in range(len(words) - 2) if "|" not in words[i:i + 3]}


def test_the_newer_sentences_are_made_by_these_paths(tmp_path):
    messages = newer_messages(tmp_path)
    for ending in ENDINGS:
        assert any(ending in m for m in messages), (ending, messages)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_newer_sentences_are_said_whole_in_every_language(tmp_path, lang):
    _ = gettext_for(lang)
    for message in newer_messages(tmp_path):
        said = translate_message(message, _)
        left = _english_runs(said) & _english_runs(message)
        assert not left, f"English left in the {lang} of {message!r}: {sorted(left)} in {said!r}"


def test_every_template_ending_and_phrase_is_in_every_catalog():
    # A sentence is only said in a language when its template is in that catalog: one left out of the catalogs
    # (or not marked for extraction) would reach a player in English however well the rest is translated.
    from scoutlab.text.i18n import catalog
    from scoutlab.text.spec_messages import COUNTED, PHRASES, SUFFIXES, TEMPLATES, YAML_CONTEXTS, YAML_JOINS, YAML_PROBLEMS

    singular = {form: forms[0] for forms, _field in COUNTED for form in forms}
    ids = {singular.get(text, text) for text in (*TEMPLATES, *SUFFIXES, *PHRASES, *YAML_CONTEXTS, *YAML_PROBLEMS, *YAML_JOINS)}
    for lang in OTHERS:
        missing = sorted(text for text in ids if not catalog(lang).get(text, "").strip("\x00"))
        assert not missing, (lang, missing)


# What a spec written by hand gets wrong most, each with PyYAML's own words for it.
MALFORMED = {
    "a tab": "name: x\n\tplayers: [3]\n",
    "an indent": "name: x\nscoring:\n  a: 1\n b: 2\n",
    "an unclosed [": "players: [3, 4\nname: x\n",
    "an unclosed {": "scoring: {a: 1\nname: x\n",
    "an unclosed quote": 'name: "x\nplayers: [3]\n',
    "a missing colon": "name x\nplayers: [3]\n",
    "a list item in a mapping": "name: x\n- 3\n",
    "an alias never anchored": "name: *a\n",
    "two documents": "name: x\n---\nname: y\n",
    "an unknown escape": 'name: "\\q"\n',
    "an at sign": "name: @x\n",
    "an empty list item": "players: [3,, 4]\n",
    "a Python tag": "name: !!python/object x\n",
    "a lone surrogate": "name: \ud800\n",
    "an anchor given twice": "name: &a x\ntitle: &a y\n",
    "an anchor with no name": "name: & x\n",
    "an alias with no name": "name: * x\n",
    "a quote open at a document's end": "name: 'x\n---\n",
}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("text", MALFORMED.values(), ids=MALFORMED.keys())
def test_pyyaml_s_words_for_malformed_yaml_are_said_in_the_language(lang, text):
    from scoutlab.spec.source import parse

    message = parse(text).findings[0].message
    assert message.startswith("malformed YAML: ")
    said = translate_message(message, gettext_for(lang))
    left = _english_runs(said) & _english_runs(message)
    assert not left, f"English left in the {lang} of {message!r}: {sorted(left)} in {said!r}"
