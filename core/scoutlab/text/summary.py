"""A rules summary made from a compiled variant: what a table of players reads before playing.

`summarize(rules)` builds the summary as data: sections, each a list of sentences, and
each sentence a message id with parameters. `render_text` turns that into English
through MESSAGES, the one place the summary's English lives; a UI renders the same
summary in another language by passing its own catalog of the same ids to `render`.

Everything comes from the compiled rules, never from the YAML text: knobs from their
attributes, end conditions from their hook descriptions, and the strength order by
asking the compiled comparison about a few sample shows, so a plugin that changes the
order changes the summary too.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoutlab.base.plural import ngettext
from scoutlab.engine.cards import MASK, SHIFT, format_card
from scoutlab.host.manager import implementers, plugin_ref, plugin_summary

if TYPE_CHECKING:
    from scoutlab.rules import Rules

# Every English sentence of the summary, by message id. `{name}` is a parameter;
# `{name:and}` / `{name:or}` join a list; `{name:+}` signs a number. Ids ending in
# `.one` are the singular forms of the ids ending in `.many`, worded ("one Scout chip");
# the ids in PLURALS are counted messages, translated with ngettext: MESSAGES holds the
# English plural, PLURALS the English singular and the parameter that holds the count.
MESSAGES: dict[str, str] = {
    "title": "{name}: {description}",
    "list.next": "{head}, {item}",  # a list's items before its last: Arabic and Persian write their own comma
    "list.and": "{head} and {last}",
    "list.or": "{head} or {last}",
    "section.deck": "Players and deck",
    "section.hand": "Your hand",
    "section.turn": "A turn",
    "section.strength": "Which show is stronger",
    "section.round_end": "End of a round",
    "section.scoring": "Scoring",
    "section.game": "Rounds and winning",
    "section.plugins": "Plugins in force",
    "section.differences": "How this variant differs from the official rules",
    # players and deck
    "deck.players": "For {counts:or} players.",
    "deck.cards": "The deck has one card for every pair of different numbers from {lowest} to {highest}: {size} cards.",
    "deck.random_orientation": "Shuffling also turns every card at random, so either of its numbers may be on top.",
    "deck.fixed_orientation": "Every card is dealt with its lower number on top.",
    "deck.whole": "With {players} players, all {in_play} cards are in play.",
    "deck.remove": "With {players} players, take out {what:and}: {in_play} cards are in play.",
    "removal.numbers": "every card with a {numbers:or} ({count} cards)",
    "removal.card": "the {card} card",
    "deal.exact": "Each of the {players} players is dealt {hand} cards; none are left over.",
    "deal.set_aside": "Each of the {players} players is dealt {hand} cards; the other {left} are set aside for the later rounds.",
    "deal.left_out": "Each of the {players} players is dealt {hand} cards; the other {left} stay out of the round, unseen.",
    "deal.set_aside_one": "Each of the {players} players is dealt {hand} cards; the one card left over is set aside for the later rounds.",
    "deal.left_out_one": "Each of the {players} players is dealt {hand} cards; the one card left over stays out of the round, unseen.",
    "deal.each_round": "Every round is dealt afresh from the whole deck, shuffled again.",
    "deal.once": "The deck is shuffled once per game: later rounds are dealt from the cards set aside, so no card is dealt twice.",
    # the hand
    "hand.fixed": "Nobody may ever reorder their hand or turn single cards over.",
    "flip.keeps_order": "At the start of each round, after looking at the hand and before the first move, each player chooses once to keep it or to flip it whole: every card's two numbers swap, and the cards keep their left-to-right order.",
    "flip.reverses_order": "At the start of each round, after looking at the hand and before the first move, each player chooses once to keep it or to flip it whole: every card's two numbers swap and the left-to-right order reverses, as when the hand is turned around.",
    "flip.none": "Hands may not be flipped.",
    "chips.scout.one": "At the start of each round every player takes one Scout chip from the supply.",
    "chips.scout.many": "At the start of each round every player takes {count} Scout chips from the supply.",
    "chips.scout_show.one": "Every player has one Scout & Show chip per round.",
    "chips.scout_show.many": "Every player has {count} Scout & Show chips per round.",
    # a turn
    "turn.order": "{first} starts the first round; turns pass to the next seat to the left. On your turn, do exactly one of the following.",
    "turn.show": "Show: play one card, or several cards that sit next to each other in your hand and form a set (all the same number) or a run (each number one more, or each one less, than the one before). If there is an active set, your show must be stronger; you capture the beaten set face down, and your show becomes the active set, which you own.",
    "turn.wrap": "Runs may also wrap around from {highest} to {lowest}, e.g. {example}.",
    "turn.scout": "Scout: take one card from either end of the active set (never from your own), turn it over if you like, and put it anywhere in your hand.",
    "scout.owner_receives": "For each scout, the owner of the active set receives a Scout chip from the supply.",
    "scout.pays": "To scout you pay one of your own Scout chips into the supply; with no Scout chip left you cannot scout.",
    "scout.extra_turn": "After a scout you act again: you may scout again or show.",
    "turn.scout_show": "Scout & Show: spend a Scout & Show chip to scout and then show at once. The show must beat what is left of the active set, or anything goes if the scout emptied it.",
    "scout_show.fallback": "If no show is possible after the scout, the turn ends as a plain scout; the chip is spent.",
    "scout_show.no_fallback": "A Scout & Show may only be played when a show is possible after the scout.",
    "turn.no_scout_show": "There is no Scout & Show.",
    # strength
    "strength.empty": "When there is no active set, any show may be played; it captures nothing.",
    "strength.more": "More cards beat fewer.",
    "strength.set_over_run": "With equal counts, a set beats a run.",
    "strength.run_over_set": "With equal counts, a run beats a set.",
    "strength.higher_lowest": "With equal count and kind, the higher lowest number wins.",
    "strength.wrap_start": "A run that wraps counts on past {highest}: {example} counts as {unwrapped}, so its lowest number is {start}.",
    "strength.equal": "Equal strength is not stronger: such a show may not be played.",
    "strength.other": "This variant changes this order in ways not listed here.",
    "strength.plugins": "These plugins take part in deciding what a show is and which is stronger: {names:and}.",
    # end of a round
    "end.intro": "A round ends at once when:",
    "end.condition": "{description}",
    "end.cap": "Safety cap (in no rulebook): a round that reaches {turns} turns ends there and is scored with no exemption.",
    # scoring
    "score.intro": "When a round ends, each player scores:",
    "score.captured": "{points:+} for each captured card",
    "score.received": "{points:+} for each Scout chip received",
    "score.unspent": "{points:+} for each Scout chip still held",
    "score.unspent_scout_show": "{points:+} for each Scout & Show chip still held",
    "score.in_hand": "{points:+} for each card still in hand",
    "score.exemption": "The owner of the last show loses nothing for the cards in their hand when the round ends this way: {conditions:or}.",
    "score.no_exemption": "Nobody is exempt from the points for cards in hand.",
    "score.worthless": "The cards left in the active set are worth nothing.",
    "score.worthless_scout_show": "Scout & Show chips and the cards left in the active set are worth nothing.",
    "score.plugins": "These plugins adjust the round scores: {names:and}.",
    # the game
    "game.rounds_per_player": "A game has as many rounds as there are players.",
    "game.rounds.one": "A game has one round.",
    "game.rounds.many": "A game has {count} rounds.",
    "game.rotate_left.one": "The starting player moves one seat to the left each round.",
    "game.rotate_left.many": "The starting player moves {steps} seats to the left each round.",
    "game.rotate_right.one": "The starting player moves one seat to the right each round.",
    "game.rotate_right.many": "The starting player moves {steps} seats to the right each round.",
    "game.same_start": "The same player starts every round.",
    "game.lowest_total_starts": (
        "From the second round on, the player with the lowest total starts; between equal totals, the one "
        "nearest to the left of the seat the rotation would start."
    ),
    "game.winner": "The highest total wins; tied players share the victory.",
    # plugins
    "plugins.none": "None: these are the rules exactly as the spec's knobs say.",
    "plugins.item": "{name}: {summary}.",
    "plugins.item_config": "{name} ({config}): {summary}.",
    "seat": "Player {number}",
}


#: Counted messages: id -> (English singular, the parameter that holds the count); MESSAGES holds the plural.
PLURALS: dict[str, tuple[str, str]] = {
    "deck.cards": ("The deck has one card for every pair of different numbers from {lowest} to {highest}: {size} card.", "size"),
    "deck.whole": ("With {players} players, all {in_play} card is in play.", "in_play"),
    "deck.remove": ("With {players} players, take out {what:and}: {in_play} card is in play.", "in_play"),
    "removal.numbers": ("every card with a {numbers:or} ({count} card)", "count"),
    "deal.exact": ("Each of the {players} players is dealt {hand} card; none are left over.", "hand"),
    "deal.set_aside": (
        "Each of the {players} players is dealt {hand} card; the other {left} are set aside for the later rounds.", "hand"
    ),
    "deal.left_out": ("Each of the {players} players is dealt {hand} card; the other {left} stay out of the round, unseen.", "hand"),
    "deal.set_aside_one": (
        "Each of the {players} players is dealt {hand} card; the one card left over is set aside for the later rounds.", "hand"
    ),
    "deal.left_out_one": (
        "Each of the {players} players is dealt {hand} card; the one card left over stays out of the round, unseen.", "hand"
    ),
    "chips.scout.many": ("At the start of each round every player takes {count} Scout chip from the supply.", "count"),
    "chips.scout_show.many": ("Every player has {count} Scout & Show chip per round.", "count"),
    "end.cap": (
        "Safety cap (in no rulebook): a round that reaches {turns} turn ends there and is scored with no exemption.", "turns"
    ),
    "game.rounds.many": ("A game has {count} round.", "count"),
    "game.rotate_left.many": ("The starting player moves {steps} seat to the left each round.", "steps"),
    "game.rotate_right.many": ("The starting player moves {steps} seat to the right each round.", "steps"),
}


def messages_for(_: Callable[..., str]) -> dict[str, str | Callable[[int], str]]:
    """MESSAGES in the language of a catalog's `_`: each a string, or for a counted message the form for a count."""
    def forms(singular: str, plural: str) -> Callable[[int], str]:
        return lambda n: ngettext(singular, plural, n, _)

    return {key: forms(PLURALS[key][0], english) if key in PLURALS else _(english) for key, english in MESSAGES.items()}


@dataclass(frozen=True)
class Sentence:
    """One sentence (or part of one) of the summary: a message id and its parameters.

    Parameter values are numbers, strings, lists of them (joined by `{name:and}` or
    `{name:or}`), or Sentences themselves for a phrase inside a sentence. `items` are
    the points of a sentence that introduces a list (e.g. each way a round can end).
    """

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    items: tuple[Sentence, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "params": {k: _plain(v) for k, v in self.params.items()},
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True)
class Section:
    """A titled part of the summary (its title is the message `section.<id>`)."""

    id: str
    sentences: tuple[Sentence, ...]


@dataclass(frozen=True)
class Summary:
    """A variant's rules summary: its name, description and sections, ready to render in any language."""

    variant: str
    description: str
    sections: tuple[Section, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: `{"variant", "description", "sections": [{"id", "sentences": [...]}]}`."""
        return {
            "variant": self.variant,
            "description": self.description,
            "sections": [{"id": s.id, "sentences": [x.to_dict() for x in s.sentences]} for s in self.sections],
        }

    def sentence_ids(self) -> list[str]:
        """Every message id the summary uses, nested phrases included, in order."""
        ids: list[str] = []
        for section in self.sections:
            for sentence in section.sentences:
                _collect_ids(sentence, ids)
        return ids


def _plain(value: Any) -> Any:
    if isinstance(value, Sentence):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _collect_ids(sentence: Sentence, ids: list[str]) -> None:
    ids.append(sentence.id)
    for value in sentence.params.values():
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, Sentence):
                _collect_ids(item, ids)
    for item in sentence.items:
        _collect_ids(item, ids)


# --------------------------------------------------------------------------- building the summary


def summarize(rules: Rules) -> Summary:
    """The rules summary of a compiled variant, as data."""
    sections = (
        Section("deck", tuple(_deck(rules))),
        Section("hand", tuple(_hand(rules))),
        Section("turn", tuple(_turn(rules))),
        Section("strength", tuple(_strength(rules))),
        Section("round_end", tuple(_round_end(rules))),
        Section("scoring", tuple(_scoring(rules))),
        Section("game", tuple(_game(rules))),
        Section("plugins", tuple(_plugins(rules))),
    )
    return Summary(rules.name, rules.description, sections)


def _counted(stem: str, count: int, **params: Any) -> Sentence:
    """The singular or plural form of a message, by count."""
    return Sentence(f"{stem}.one" if count == 1 else f"{stem}.many", {"count": count, **params})


def _deck(rules: Rules):
    yield Sentence("deck.players", {"counts": list(rules.players)})
    yield Sentence("deck.cards", {"lowest": rules.lowest, "highest": rules.highest, "size": len(rules.deck)})
    yield Sentence("deck.random_orientation" if rules.random_orientation else "deck.fixed_orientation")
    for n in rules.players:
        in_play = len(rules.deck_for(n))
        removed = _removal(rules, rules.removed[n])
        if removed:
            yield Sentence("deck.remove", {"players": n, "what": removed, "in_play": in_play})
        else:
            yield Sentence("deck.whole", {"players": n, "in_play": in_play})
        hand = rules.hand_size[n]
        left = in_play - hand * n
        deal = "deal.exact" if not left else "deal.set_aside" if rules.shuffle_once else "deal.left_out"
        if left == 1:  # one card reads as a card, not as "the other 1"
            deal += "_one"
        yield Sentence(deal, {"players": n, "hand": hand, "left": left})
    yield Sentence("deal.once" if rules.shuffle_once else "deal.each_round")


def _removal(rules: Rules, removed: list[int]) -> list[Sentence]:
    """The removed cards described as a person would: whole numbers first, then single cards."""
    gone = set(removed)
    numbers = [
        n for n in range(rules.lowest, rules.highest + 1)
        if all(c in gone for c in rules.deck if n in (c >> SHIFT, c & MASK))
    ]
    explained = {c for c in removed if (c >> SHIFT) in numbers or (c & MASK) in numbers}
    phrases = [Sentence("removal.numbers", {"numbers": numbers, "count": len(explained)})] if numbers else []
    phrases += [Sentence("removal.card", {"card": format_card(c)}) for c in removed if c not in explained]
    return phrases


def _hand(rules: Rules):
    yield Sentence("hand.fixed")
    if not rules.flip_allowed:
        yield Sentence("flip.none")
    else:
        yield Sentence("flip.reverses_order" if rules.flip_reverses else "flip.keeps_order")
    if rules.scout_chips:
        yield _counted("chips.scout", rules.scout_chips)
    if rules.sns_chips:
        yield _counted("chips.scout_show", rules.sns_chips)


def _turn(rules: Rules):
    yield Sentence("turn.order", {"first": _seat(rules.first_starting_seat)})
    yield Sentence("turn.show")
    wrap = _wrap_example(rules)
    if wrap:
        yield Sentence("turn.wrap", {"highest": rules.highest, "lowest": rules.lowest, "example": _dash(wrap)})
    yield Sentence("turn.scout")
    yield Sentence("scout.pays" if rules.scout_pays else "scout.owner_receives")
    if rules.extra_turn:
        yield Sentence("scout.extra_turn")
    if rules.sns_chips:
        yield Sentence("turn.scout_show")
        yield Sentence("scout_show.fallback" if rules.sns_fallback else "scout_show.no_fallback")
    else:
        yield Sentence("turn.no_scout_show")


def _wrap_example(rules: Rules) -> tuple[int, ...] | None:
    """A run that wraps from the highest number to the lowest, if the compiled rules accept one."""
    high, low = rules.highest, rules.lowest
    example = (high - 1, high, low)
    return example if rules.classify(example) == "run" else None


def _strength(rules: Rules):
    """The comparison, stated only as far as the compiled rules confirm it on sample shows."""
    low, high = rules.lowest, rules.highest
    pair_low, pair_high = (low, low), (high, high)
    run_low, run_high = (low, low + 1), (high - 1, high)

    def stronger(show: tuple[int, ...], active: tuple[int, ...]) -> bool:
        return rules.beats(show, active) and not rules.beats(active, show)

    yield Sentence("strength.empty")
    confirmed = [
        ("strength.more", stronger(pair_low, (high,)) and stronger((low, low + 1, low + 2), pair_high)),
        ("strength.set_over_run", stronger(pair_low, run_high)),
        ("strength.run_over_set", stronger(run_low, pair_high)),
        ("strength.higher_lowest", stronger((low + 1, low + 1), pair_low) and stronger((low + 1, low + 2), run_low)),
        ("strength.equal", not any(rules.beats(shown, shown) for shown in (pair_low, run_low, (high,)))),
    ]
    yield from (Sentence(message) for message, holds in confirmed if holds)
    wrap = _wrap_example(rules)
    below = (high - 2, high - 1, high)
    if wrap and stronger(wrap, below):
        unwrapped = (high - 1, high, high + 1)
        yield Sentence("strength.wrap_start", {"highest": high, "example": _dash(wrap), "unwrapped": _dash(unwrapped), "start": high - 1})
    counted = [holds for message, holds in confirmed if message not in ("strength.set_over_run", "strength.run_over_set")]
    kinds_ordered = confirmed[1][1] or confirmed[2][1]
    if not (all(counted) and kinds_ordered):
        yield Sentence("strength.other")
    hooked = sorted(
        set(implementers(rules.plugins, "scoutlab_classify_show") + implementers(rules.plugins, "scoutlab_show_beats"))
        - {"builtin"}
    )
    if hooked:
        yield Sentence("strength.plugins", {"names": hooked})


def _round_end(rules: Rules):
    conditions = [Sentence("end.condition", {"description": c.description}) for _, c in rules.end_conditions]
    yield Sentence("end.intro", items=tuple(conditions))
    yield Sentence("end.cap", {"turns": rules.max_turns})


def _scoring(rules: Rules):
    points = [
        Sentence(message, {"points": value})
        for message, value in (
            ("score.captured", rules.points_captured),
            ("score.received", rules.points_received),
            ("score.unspent", rules.points_unspent),
            ("score.unspent_scout_show", rules.points_unspent_scout_show if rules.sns_chips else 0),
            ("score.in_hand", rules.points_in_hand),
        )
        if value
    ]
    yield Sentence("score.intro", items=tuple(points))
    exempting = [c.description for _, c in rules.end_conditions if c.exempts_last_show_owner]
    if rules.points_in_hand:
        if rules.exemption and exempting:
            yield Sentence("score.exemption", {"conditions": exempting})
        else:
            yield Sentence("score.no_exemption")
    # A held Scout & Show chip that scores is not worthless: then only the active set's cards are.
    chips_worthless = rules.sns_chips and not rules.points_unspent_scout_show
    yield Sentence("score.worthless_scout_show" if chips_worthless else "score.worthless")
    adjusting = [name for name in implementers(rules.plugins, "scoutlab_score_round") if name != "builtin"]
    if adjusting:
        yield Sentence("score.plugins", {"names": sorted(adjusting)})


def _game(rules: Rules):
    if rules.round_count is None:
        yield Sentence("game.rounds_per_player")
    else:
        yield _counted("game.rounds", rules.round_count)
    if rules.rounds_for(max(rules.players)) > 1:
        steps = rules.rotate_start
        if steps > 0:
            yield Sentence("game.rotate_left.one" if steps == 1 else "game.rotate_left.many", {"steps": steps})
        elif steps < 0:
            yield Sentence("game.rotate_right.one" if steps == -1 else "game.rotate_right.many", {"steps": -steps})
        else:
            yield Sentence("game.same_start")
        if rules.lowest_total_starts:
            yield Sentence("game.lowest_total_starts")
    yield Sentence("game.winner")


def _plugins(rules: Rules):
    entries = [plugin_ref(item) for item in rules.spec.doc.get("plugins", [])]
    entries = [(name, config) for name, config in entries if name != "builtin"]
    if not entries:
        yield Sentence("plugins.none")
    for name, config in entries:
        summary = plugin_summary(rules.plugins.get_plugin(name), name) or "(no description)"
        if config:
            shown = ", ".join(f"{key}={value}" for key, value in config.items())
            shown = shown if len(shown) <= 200 else shown[:200] + "..."  # a spec's text is not a summary's
            yield Sentence("plugins.item_config", {"name": name, "config": shown, "summary": summary})
        else:
            yield Sentence("plugins.item", {"name": name, "summary": summary})


def _seat(seat: int) -> Sentence:
    return Sentence("seat", {"number": seat + 1})


def _dash(values: tuple[int, ...]) -> str:
    return "-".join(map(str, values))


# --------------------------------------------------------------------------- rendering


class _Formatter(string.Formatter):
    """str.format with the summary's extras: nested sentences, `:and` / `:or` lists, and a catalog."""

    def __init__(self, messages: Mapping[str, Any]):
        self.messages = messages

    def format_field(self, value: Any, spec: str) -> str:
        if spec in ("and", "or"):
            items = [self.format_field(v, "") for v in value]
            if len(items) < 2:
                return "".join(items)
            head = items[0]
            for item in items[1:-1]:
                head = self.messages["list.next"].format(head=head, item=item)
            return self.messages[f"list.{spec}"].format(head=head, last=items[-1])
        if isinstance(value, Sentence):
            return self.sentence(value)
        return super().format_field(value, spec)

    def sentence(self, sentence: Sentence) -> str:
        template = self.messages[sentence.id]
        if sentence.id in PLURALS:
            count = sentence.params[PLURALS[sentence.id][1]]
            if callable(template):  # a catalog's forms: the one this count takes
                template = template(count)
            elif count == 1 and template == MESSAGES[sentence.id]:  # English
                template = PLURALS[sentence.id][0]
        return self.vformat(template, (), dict(sentence.params))


Rendered = list[tuple[str, list[tuple[str, list[str]]]]]


def render(summary: Summary, messages: Mapping[str, Any] = MESSAGES) -> Rendered:
    """Each section as (title, [(sentence, [its items])]), in the language of `messages`.

    `messages` is a catalog with MESSAGES' ids: MESSAGES itself for English, `messages_for(_)` for another language.
    """
    formatter = _Formatter(messages)
    return [
        (
            messages[f"section.{section.id}"],
            [(formatter.sentence(s), [formatter.sentence(i) for i in s.items]) for s in section.sentences],
        )
        for section in summary.sections
    ]


def render_text(summary: Summary, messages: Mapping[str, Any] = MESSAGES) -> str:
    """The summary as plain text: a title line, then each section's title and its sentences as bullets."""
    title = summary.variant if not summary.description else messages["title"].format(
        name=summary.variant, description=summary.description
    )
    lines = [title]
    for heading, sentences in render(summary, messages):
        lines += ["", heading]
        for sentence, items in sentences:
            lines += [f"  - {sentence}"] + [f"      - {item}" for item in items]
    return "\n".join(lines) + "\n"
