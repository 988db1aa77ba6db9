"""Spec problems in the player's language: every sentence of the bad-spec corpus has a template.

The spec layer words a problem once, in English; `scoutlab.text.spec_messages` re-says it in
the player's language by its template (see docs/i18n.md). A new problem sentence with no
template would reach a Persian player in English: this corpus test fails first.
"""

from __future__ import annotations

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


def test_a_problem_keeps_its_file_line_and_path():
    with pytest.raises(SpecError) as caught:
        load_spec_text("extends: official\nname: x\nscot: {}\n", "pasted.yaml")
    said = translate_problem(caught.value.problems[0], gettext_for("el"))
    assert said == "pasted.yaml:3: $.scot: άγνωστο κλειδί 'scot'· μήπως εννοείς 'scout';"
