"""The "How to play" page of a variant: the same summary as `scoutlab rules`, in the player's language.

`scoutlab.summary` builds the summary from the compiled rules as message ids with
parameters; here each English message is looked up in the catalogs (its English text is
the gettext message id), so a house rule's page says what that house rule does, in
every language. End-condition descriptions come from the plugin that defines them and
are translated the same way when the catalogs know them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scoutlab.rules import Rules
from scoutlab.text.i18n import Gettext
from scoutlab.text.summary import MESSAGES, Sentence, Summary, render, summarize


def rules_sections(rules: Rules, _: Gettext) -> list[dict[str, Any]]:
    """[{title, sentences: [{text, items}]}] for the rules page, the online version's aim first (seeds 001, 003)."""
    aim = {"title": _("The aim"), "sentences": [{"text": _(
        "Play a set stronger than the active set, or scout a new card into your hand. "
        "Captured cards and Scout chips score points."
    ), "items": []}]}
    summary = _localized(summarize(rules), _)
    messages = {key: _(english) for key, english in MESSAGES.items()}
    return [aim] + [
        {"title": title, "sentences": [{"text": text, "items": items} for text, items in sentences]}
        for title, sentences in render(summary, messages)
    ]


def _localized(summary: Summary, _: Gettext) -> Summary:
    sections = tuple(replace(s, sentences=tuple(_sentence(x, _) for x in s.sentences)) for s in summary.sections)
    return replace(summary, sections=sections)


#: Parameters that carry end-condition descriptions: a plugin's English, translated when the catalogs know it.
_DESCRIPTIONS = {"end.condition": "description", "score.exemption": "conditions"}


def _sentence(sentence: Sentence, _: Gettext) -> Sentence:
    described = _DESCRIPTIONS.get(sentence.id)
    params = {key: _param(value, key == described, _) for key, value in sentence.params.items()}
    return replace(sentence, params=params, items=tuple(_sentence(item, _) for item in sentence.items))


def _param(value, is_description: bool, _: Gettext):
    if isinstance(value, Sentence):
        return _sentence(value, _)
    if isinstance(value, (list, tuple)):
        return [_param(v, is_description, _) for v in value]
    return _(value) if is_description and isinstance(value, str) else value
