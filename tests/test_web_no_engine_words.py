"""No engine word where a player reads, in every language: the start page names levels and variants by
their translated words, the bots' specs (`mcts:seconds=0.8`) show only in the start page's folded details
line, and a match's opponents are named in the player's language (issue 29)."""

from __future__ import annotations

import html
import random
import re

import pytest
from web_helpers import client_for, readable, state_strings, step

from scoutlab.bots.levels import LEVELS, level_bot
from scoutlab.text.bot_names import bot_label
from scoutlab.text.i18n import LANGUAGES, gettext_for
from scoutlab.text.variant_text import shipped_listing
from scoutlab.web.new_match import offered_bots

SPEC = re.compile(r"\b(mcts|skilled|heuristic|greedy|random)(:|\b)")
DETAILS = re.compile(r'<details class="level-details">.*?</details>', re.S)


def shown_of_state(state: dict) -> str:
    """Every string of a match state the table's script may show; `bot_id` and `variant` are identifiers."""
    return state_strings(state)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return client_for(tmp_path_factory.mktemp("web") / "matches.db")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_page_names_no_bot_spec_outside_its_details_line(client, lang):
    page = client.get(f"/?lang={lang}").text
    details = DETAILS.findall(page)
    assert len(details) == 1, "one folded details line says which bot plays at each level"
    assert all(level.bot in html.unescape(details[0]) for level in LEVELS), "the curious can still read each level's bot"
    outside = readable(DETAILS.sub(" ", page))
    assert SPEC.findall(outside) == [], f"a bot spec in what a player reads: {SPEC.findall(outside)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_levels_and_bots_are_offered_by_their_translated_names(client, lang):
    _ = gettext_for(lang)
    page = client.get(f"/?lang={lang}").text
    level_menu = page.split('id="level"', 1)[1].split("</select>", 1)[0]
    words = [html.unescape(text).strip() for text in re.findall(r"<option [^>]*>([^<]*)</option>", level_menu)]
    assert words == [_(level.word) for level in LEVELS]
    bot_menu = page.split('id="bot1"', 1)[1].split("</select>", 1)[0]
    labels = [html.unescape(text).strip() for text in re.findall(r"<option [^>]*>([^<]*)</option>", bot_menu)][1:]
    assert labels == [bot_label(name, _) for name in offered_bots()]
    if lang != "en":
        english = {bot_label(name, gettext_for("en")) for name in offered_bots()}
        assert not english & set(labels), "every bot has a name in every language: add it to scoutlab.text.bot_names.BOT_LABELS"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_page_offers_the_shipped_variants_and_folds_the_yaml_box(client, lang):
    page = client.get(f"/?lang={lang}").text
    choices = re.findall(r'<input type="radio" name="variant" value="([^"]+)"', page)
    assert choices == [entry.name for entry in shipped_listing(lang)]
    text = readable(page)
    assert all(entry.title in text for entry in shipped_listing(lang)), "each variant by its title in the player's language"
    advanced = re.search(r'<details class="advanced"\s*>(.*?)</details>', page, re.S)
    assert advanced and 'id="spec_text"' in advanced.group(1) and 'id="spec_file"' in advanced.group(1)
    assert "YAML" not in readable(page.replace(advanced.group(0), "")), "the YAML box only under the advanced disclosure"


def test_a_refused_spec_opens_the_advanced_disclosure_again(client):
    answer = client.post("/new?lang=en", data={"variant": "official", "spec_text": "extends: official\nfoo: 1\n"})
    assert answer.status_code == 422
    assert re.search(r'<details class="advanced" open>', answer.text), "the player sees their spec and its problems"


def test_a_bots_spec_is_named_by_the_bot_and_every_shipped_bot_has_a_name():
    for lang in LANGUAGES:
        _ = gettext_for(lang)
        assert bot_label("mcts:seconds=0.8", _) == bot_label("mcts", _) == _("Search bot")
        assert bot_label("skilled", _) == _("Skilled bot")
        for name in offered_bots():
            assert not SPEC.search(bot_label(name, _)), f"{name} has no name in {lang}"
    assert bot_label("plugin-bot:depth=3", gettext_for("fa")) == "plugin-bot:depth=3", "a bot no catalog knows keeps its identifier"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_match_against_every_level_and_bot_names_no_spec(client, lang):
    _ = gettext_for(lang)
    opponents = [[level.name] for level in LEVELS] + [sorted(offered_bots())[:4]]
    for chosen in opponents:
        body = {"variant": "official", "players": 5, "seed": 3, "practice": True}
        body.update({"level": chosen[0]} if len(chosen) == 1 else {"bots": chosen})
        answer = client.post(f"/api/new?lang={lang}", json=body)
        assert answer.status_code == 200, answer.text
        token, state = answer.json()["token"], answer.json()["state"]
        bots = [level_bot(chosen[0])] * 4 if len(chosen) == 1 else chosen
        assert [seat["bot"] for seat in state["seats"][1:]] == [bot_label(bot, _) for bot in bots]
        page = client.get(f"/m/{token}?lang={lang}").text
        assert SPEC.findall(readable(page)) == []
        states = [state]
        rng = random.Random(1)
        for _move in range(12):  # the first moves: the bots' moves in the log name them
            states.append(step(client, token, rng, lang))
        shown = " ".join(shown_of_state(s) for s in states)
        assert SPEC.findall(shown) == [], f"{chosen}: {sorted(set(SPEC.findall(shown)))}"
