"""The "How to play" page of a variant: the same summary as `scoutlab rules`, in the player's language.

`scoutlab.text.summary` builds the summary from the compiled rules as message ids with
parameters; here each English message is looked up in the catalogs (its English text is
the gettext message id), so a house rule's page says what that house rule does, in
every language. End-condition descriptions come from the plugin that defines them and
are translated the same way when the catalogs know them.

The page is for players, not spec authors: it opens with what the variant changes from
the official rules (the summary's sentences that the official rules' summary lacks),
draws example cards under the turn and strength sections (rules_examples.py), and
leaves out what only the engine needs (the safety cap on turns, unless the variant
changes it, and plugin names; their effect is said by the sentences they change).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scoutlab.rules import Rules, load_rules
from scoutlab.text.i18n import Gettext
from scoutlab.text.summary import Section, Sentence, Summary, messages_for, render, summarize
from scoutlab.text.variant_text import description as variant_description, title as variant_title
from scoutlab.web.rules_examples import examples

#: The variant the differences are said against.
REFERENCE = "official"
#: Sentences that name plugins: the page says what they change instead.
_PLUGIN_WORDS = {"strength.plugins", "score.plugins"}


def rules_sections(rules: Rules, _: Gettext) -> list[dict[str, Any]]:
    """[{id, title, sentences: [{text, items}], examples}] for the rules page.

    The variant's differences from the official rules come first (none for the official
    rules themselves), then the aim as the online version words it, then every section
    of the summary with its example cards.
    """
    aim = {"id": "aim", "title": _("The aim"), "examples": [], "sentences": [{"text": _(
        "Play a set stronger than the active set, or scout a new card into your hand. "
        "Captured cards and Scout chips score points."
    ), "items": []}]}
    reference = _reference(rules)
    summary = _for_players(summarize(rules), _official_cap(rules))
    pictures = examples(rules, _)
    sections = [
        {"id": section.id, "title": title, "examples": pictures.get(section.id, []),
         "sentences": [{"text": text, "items": items} for text, items in sentences]}
        for section, (title, sentences) in zip(summary.sections, _render(summary, _))
    ]
    changed = _differences(summary, reference)
    if changed.sections[0].sentences:
        title, sentences = _render(changed, _)[0]
        head = [{"id": "differences", "title": title, "examples": [],
                 "sentences": [{"text": text, "items": items} for text, items in sentences]}]
    else:
        head = []
    return head + [aim] + sections


def _render(summary: Summary, _: Gettext):
    return render(localized_summary(summary, _), messages_for(_))


def _reference(rules: Rules) -> Summary | None:
    """The official rules' summary, cleaned as the page shows it; None on the official rules' own page."""
    if rules.name == REFERENCE:
        return None
    official = load_rules(REFERENCE)
    return _for_players(summarize(official), official.max_turns)


def _official_cap(rules: Rules) -> int:
    return rules.max_turns if rules.name == REFERENCE else load_rules(REFERENCE).max_turns


def _for_players(summary: Summary, official_cap: int) -> Summary:
    """The summary without engine words: no plugin section or plugin names, no turn cap the official rules share."""
    sections = []
    for section in summary.sections:
        if section.id == "plugins":
            continue
        kept = tuple(
            s for s in section.sentences
            if s.id not in _PLUGIN_WORDS and not (s.id == "end.cap" and s.params.get("turns") == official_cap)
        )
        sections.append(replace(section, sentences=kept))
    return replace(summary, sections=tuple(sections))


def _differences(summary: Summary, reference: Summary | None) -> Summary:
    """One section of the sentences (and list items) the official rules' summary does not have."""
    if reference is None:
        return replace(summary, sections=(Section("differences", ()),))
    known = {_key(s) for section in reference.sections for s in section.sentences}
    known_items = {_key(i) for section in reference.sections for s in section.sentences for i in s.items}
    changed = []
    for section in summary.sections:
        for sentence in section.sentences:
            if sentence.items:
                new_items = tuple(i for i in sentence.items if _key(i) not in known_items)
                if new_items:
                    changed.append(replace(sentence, items=new_items))
            elif _key(sentence) not in known:
                changed.append(sentence)
    return replace(summary, sections=(Section("differences", tuple(changed)),))


def _key(sentence: Sentence) -> str:
    return repr(sentence.to_dict() | {"items": []})


def localized_summary(summary: Summary, _: Gettext) -> Summary:
    """The summary with the end conditions' own words (a plugin's English) translated where the catalogs know them."""
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


def variant_words(rules: Rules, lang: str) -> dict[str, str]:
    """The variant's title and description in `lang`, for the page's heading."""
    return {"title": variant_title(rules.spec.doc, lang), "description": variant_description(rules.spec.doc, lang)}
