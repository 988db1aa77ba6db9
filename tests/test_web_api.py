"""The browser game's server: new matches, moves checked by the engine, refusals with reasons, bots,
pages in every language, the match database (resume exactly, refuse foreign files)."""

from __future__ import annotations

import random
import re
import sqlite3

import pytest
from web_helpers import client_for, new_match, play_to_end, server_match, step

from scoutlab import cli
from scoutlab.spec.variant import shipped_variants
from scoutlab.text.i18n import LANGUAGES
from scoutlab.web import inputs
from scoutlab.web.store import MatchDamaged, MatchStore, StorageFull, StoreError


@pytest.fixture
def client(tmp_path):
    return client_for(tmp_path / "matches.sqlite3")


# -- starting a match -------------------------------------------------------------------------


def test_new_match_deals_the_browser_its_hand_and_asks_for_the_flip(client):
    token, state = new_match(client, "official", 3)
    assert len(token) >= 20
    assert state["phase"] == "flip" and state["your_turn"] and state["legal"]["flip"]
    assert len(state["hand"]) == 12 and [s["hand_size"] for s in state["seats"]] == [12, 12, 12]
    assert state["hints"] == ["You may flip your whole hand now. After the first move, its order and orientation lock."]


def test_tokens_are_unguessable_and_unknown_ones_are_refused(client):
    first, _ = new_match(client, seed=1)
    second, _ = new_match(client, seed=1)
    assert first != second
    for path in (f"/api/m/{first[:-1]}x", "/api/m/nope"):
        assert client.get(path).status_code == 404
    assert client.post("/api/m/nope/act", json={"action": "keep"}).status_code == 404
    assert client.get("/m/nope").status_code == 404


def test_the_default_opponent_is_the_expert_levels_bot(client):
    from scoutlab.bots.levels import level_bot

    answer = client.post("/api/new", json={"variant": "two-player", "players": 2})
    assert answer.json()["state"]["seats"][1]["bot_id"] == level_bot("expert")
    answer = client.post("/api/new", json={"variant": "official", "players": 3, "level": "hard"})
    assert [seat["bot_id"] for seat in answer.json()["state"]["seats"][1:]] == ["skilled", "skilled"]
    answer = client.post("/api/new", json={"variant": "official", "players": 3, "level": "hard", "bots": ["random", "greedy"]})
    assert [seat["bot_id"] for seat in answer.json()["state"]["seats"][1:]] == ["random", "greedy"], "bots win over a level"
    answer = client.post("/api/new", json={"variant": "official", "players": 3, "level": "godlike"})
    assert answer.status_code == 422 and answer.json()["error"].startswith("Unknown level godlike; choose one of: easy,")


def test_the_form_offers_the_levels_by_name_and_posts_one(client):
    from scoutlab.bots.levels import LEVELS

    page = client.get("/?lang=el").text
    options = re.findall(r'<option value="(\w+)"[^>]*>([^<]*)</option>', page.split('id="level"', 1)[1].split("</select>", 1)[0])
    assert [value for value, _ in options] == [level.name for level in LEVELS]
    assert options[0][1] == "Εύκολο", "the level by its translated word alone: its bot only in the details line"
    assert re.search(r'<option value="expert" selected>', page), "expert is chosen unless the player says otherwise"
    answer = client.post("/new", data={"variant": "official", "players": "3", "level": "medium", "bot1": "", "bot2": "random"},
                         follow_redirects=False)
    assert answer.status_code == 303
    state = client.get("/api" + answer.headers["location"] + "?lang=en").json()
    assert [(seat["bot_id"], seat["bot"]) for seat in state["seats"][1:]] == [("heuristic", "Heuristic bot"), ("random", "Random bot")]
    refused = client.post("/new?lang=en", data={"variant": "official", "players": "3", "level": "godlike"})
    assert refused.status_code == 422 and "Unknown level godlike" in refused.text


def test_a_bot_that_runs_programs_on_the_server_is_never_offered(client):
    answer = client.post("/api/new", json={"variant": "official", "players": 3, "bots": ["external:rm -rf /", "random"]})
    assert answer.status_code == 422 and "Unknown opponent" in answer.json()["error"]
    assert "external" not in client.get("/").text


def test_player_count_must_suit_the_variant(client):
    answer = client.post("/api/new", json={"variant": "two-player", "players": 4})
    assert answer.status_code == 422 and "two-player is for \u20662\u2069 players, not 4" in answer.json()["error"]
    answer = client.post("/api/new?lang=bg", json={"variant": "official", "players": 2})
    assert "не 2" in answer.json()["error"]


# -- a pasted or uploaded spec ----------------------------------------------------------------

HOUSE = "extends: official\nname: house-test\ndescription: no exemption\nscoring: {exempt_last_show_owner: false}\n"
BROKEN = "extends: official\nname: broken\nscoring: {card_in_hand: lots}\nend_conditions: [hand_emptied, nobody_home]\n"


def test_a_pasted_spec_is_played(client):
    answer = client.post("/api/new", json={"spec": HOUSE, "players": 4, "bots": ["random"] * 3})
    assert answer.status_code == 200
    assert answer.json()["state"]["variant"] == "house-test"


def test_a_bad_spec_gets_the_same_messages_as_scoutlab_validate(client, tmp_path, capsys):
    answer = client.post("/api/new", json={"spec": BROKEN, "players": 3})
    assert answer.status_code == 422
    problems = answer.json()["problems"]
    (tmp_path / "pasted.yaml").write_text(BROKEN)
    assert cli.main(["validate", str(tmp_path / "pasted.yaml")]) == 1
    printed = capsys.readouterr().err.strip().splitlines()
    assert problems and len(problems) == len(printed)
    # Same line, path and message; only the file name differs (pasted text has no directory).
    assert [p.split("pasted.yaml", 1)[1] for p in problems] == [line.split("pasted.yaml", 1)[1] for line in printed]


@pytest.mark.parametrize(("lang", "more"), [("en", "(and {n} more)"), ("el", "(και {n} ακόμη)"), ("bg", "(и още {n})")])
def test_a_spec_with_several_problems_says_how_many_more_in_the_players_language(client, lang, more):
    three_wrongs = "extends: official\nname: wrongs\nscoring: {card_in_hand: lots, captured_card: many, chip_received: x}\n"
    answer = client.post(f"/api/new?lang={lang}", json={"spec": three_wrongs, "players": 3})
    problems = answer.json()["problems"]
    assert len(problems) == 3
    assert answer.json()["error"].endswith(more.format(n=len(problems) - 1))



@pytest.mark.parametrize(("lang", "rest"), [("en", "… and 10 more"), ("ar", "… و10 مشكلات أخرى"), ("bg", "… и още 10")])
def test_problems_past_the_list_are_counted_in_the_players_language(client, lang, rest):
    thirty_wrongs = "extends: official\nname: wrongs\n" + "".join(f"bogus{i}: 1\n" for i in range(30))
    answer = client.post(f"/api/new?lang={lang}", json={"spec": thirty_wrongs, "players": 3})
    problems = answer.json()["problems"]
    assert len(problems) == inputs.MAX_PROBLEMS + 1 and problems[-1] == rest

def test_the_form_shows_spec_problems_on_the_page(client):
    answer = client.post("/new", data={"variant": "official", "players": "3", "spec_text": BROKEN})
    assert answer.status_code == 422
    assert "This variant cannot be played" in answer.text and "card_in_hand" in answer.text


def test_an_uploaded_spec_file_starts_a_match(client):
    answer = client.post(
        "/new", data={"players": "3", "bot1": "random", "bot2": "random"},
        files={"spec_file": ("house.yaml", HOUSE.encode(), "text/yaml")}, follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"].startswith("/m/")


def test_a_pasted_spec_cannot_read_server_files(client):
    answer = client.post("/api/new", json={"spec": "extends: ../../etc/passwd\nname: x\n", "players": 3})
    assert answer.status_code == 422 and "extend a shipped variant by name" in answer.json()["error"]


# -- moves ------------------------------------------------------------------------------------


def test_moves_out_of_turn_are_refused(client):
    token, _ = new_match(client, "official", 3)
    assert client.post(f"/api/m/{token}/act", json={"action": "keep"}).status_code == 200
    answer = client.post(f"/api/m/{token}/act", json={"action": "keep"})
    assert answer.status_code == 409 and answer.json()["error"] == "It is not your turn."


def test_an_illegal_move_is_refused_with_the_rule_it_breaks_in_the_players_language(client):
    token, _ = new_match(client, "official", 3, seed=4)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    while not client.get(f"/api/m/{token}").json()["your_turn"]:
        client.post(f"/api/m/{token}/advance")
    match = server_match(client, token)
    hand = [c >> 5 for c in match.state.hands[0]]
    # Find two adjacent cards that make neither a set nor a run.
    i = next(i for i in range(len(hand) - 1) if abs(hand[i] - hand[i + 1]) > 1)
    answer = client.post(f"/api/m/{token}/act?lang=el", json={"action": f"show {i + 1}-{i + 2}"})
    assert answer.status_code == 409
    assert "δεν είναι ούτε ομάδα" in answer.json()["error"]
    assert answer.json()["state"]["your_turn"]
    explained = client.get(f"/api/m/{token}/explain", params={"action": f"show {i + 1}-{i + 2}"}).json()
    assert not explained["legal"] and "neither a set" in explained["reason"]


def test_bad_notation_and_bad_bodies_get_a_clear_message(client):
    token, _ = new_match(client)
    assert client.post(f"/api/m/{token}/act", json={"action": "dance"}).json()["error"] == "'dance' is not a move."
    assert client.post(f"/api/m/{token}/act", content=b"not json").status_code == 400
    assert client.post("/api/new", content=b"[1,2]").status_code == 400


def test_bots_move_one_at_a_time_when_asked(client):
    token, _ = new_match(client, "official", 4, seed=9)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    before = len(client.get(f"/api/m/{token}").json()["log"])
    after = client.post(f"/api/m/{token}/advance").json()
    assert len(after["log"]) == before + 1


def test_the_move_log_says_which_moves_are_yours(client):
    token, _ = new_match(client, "official", 3, seed=6)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    client.post(f"/api/m/{token}/advance")
    log = client.get(f"/api/m/{token}").json()["log"]
    assert log[0] == "Player 1 (you) keeps the hand as dealt." and log[1].startswith("Player 2 ") and "(you)" not in log[1]


def test_the_page_gets_only_the_log_lines_it_lacks(client):
    token, _ = new_match(client, "official", 3, seed=6)
    client.post(f"/api/m/{token}/act", json={"action": "keep"})
    for _ in range(2):
        client.post(f"/api/m/{token}/advance")  # the two bots choose keep or flip
    whole = client.get(f"/api/m/{token}").json()
    tail = client.get(f"/api/m/{token}?log_from=2").json()
    assert whole["log_size"] == len(whole["log"]) == 3
    assert tail["log_from"] == 2 and tail["log"] == whole["log"][2:] and tail["log_size"] == 3
    assert client.get(f"/api/m/{token}?log_from=99").json()["log"] == []


def test_a_whole_match_ends_with_standings_and_shared_ties(client):
    token, _ = new_match(client, "two-player", 2, seed=5)
    final = play_to_end(client, token)
    assert final["over"] and len(final["round_ends"]) == 2
    totals = [s["total"] for s in final["seats"]]
    best = max(totals)
    assert {row["seat"] for row in final["standings"] if row["winner"]} == {s for s, t in enumerate(totals) if t == best}
    # A move after the end says so, not that it is someone else's turn.
    late = client.post(f"/api/m/{token}/act", json={"action": "keep"})
    assert late.status_code == 409 and late.json()["error"] == "The match is over."
    assert client.get(f"/api/m/{token}/explain?action=keep").json()["reason"] == "The match is over."
    for row in final["standings"]:
        assert row["rank"] == 1 + sum(t > row["total"] for t in totals)
    for end in final["round_ends"]:
        assert sum(line["score"] for line in end["lines"]) == sum(
            line["captured"] + line["chips_held"] - (0 if line["exempt"] else line["in_hand"]) for line in end["lines"]
        )


def test_the_round_end_says_why_in_the_seeds_words(client):
    reasons = set()
    for seed in range(3):
        token, _ = new_match(client, "official", 3, seed=seed)
        final = play_to_end(client, token, seed)
        reasons.update((end["reason"], end["text"]) for end in final["round_ends"])
    said = {text for reason, text in reasons if reason == "everyone_scouted"}
    assert said and all(re.fullmatch(r"Nobody beat the show of Player \d( \(you\))?: everyone else scouted instead\.", text) for text in said)


def test_every_end_reason_has_its_own_words(client):
    from dataclasses import replace

    from scoutlab.engine.explain import end_reason
    from scoutlab.text.i18n import gettext_for

    token, _ = new_match(client, "two-player", 2)
    match = server_match(client, token)
    final = play_to_end(client, token)
    end = match.state.round_ends[0]
    texts = {
        reason: end_reason(replace(end, reason=reason), match.rules, gettext_for("ar"))
        for reason in ("hand_emptied", "everyone_scouted", "opponent_stuck", "turn_cap", "no_legal_action")
    }
    unnamed = end_reason(replace(end, reason="everyone_scouted", last_shower=None), match.rules, gettext_for("ar"))
    assert unnamed == "لم يتغلب أحد على آخر عرض، لذا انتهت الجولة."  # the online version's own sentence
    assert len(set(texts.values())) == 5 and final["over"]


def test_end_reasons_say_who_and_start_with_a_capital():
    from dataclasses import replace

    from scoutlab.engine.explain import end_reason
    from scoutlab.engine.state import GameState
    from scoutlab.rules import load_rules

    rules = load_rules("two-player")
    state = GameState(rules, 2, seed=1)
    while not state.round_ends:
        state.apply(state.legal_actions()[0])
    end = replace(state.round_ends[0], last_shower=1, cards_in_hand=(3, 0))
    said = {reason: end_reason(replace(end, reason=reason), rules) for reason in ("hand_emptied", "everyone_scouted", "opponent_stuck")}
    assert said["hand_emptied"] == "P2 emptied their hand with a show."
    assert said["everyone_scouted"] == "Nobody beat the show of P2: everyone else scouted instead."
    assert said["opponent_stuck"] == "After the show of P2, P1 could neither show nor scout."
    named = end_reason(replace(end, reason="hand_emptied"), rules, names=["Ana", "Bo"])
    assert named == "Bo emptied their hand with a show."
    for reason in ("turn_cap", "no_legal_action", "hand_emptied"):
        assert end_reason(replace(end, reason=reason, last_shower=None, cards_in_hand=(3, 2)), rules)[0].isupper()


# -- the database -----------------------------------------------------------------------------


def test_a_restarted_server_resumes_every_match_exactly(tmp_path):
    db = tmp_path / "matches.sqlite3"
    first = client_for(db)
    token, _ = new_match(first, "official", 4, seed=8)
    rng = random.Random(1)
    for _ in range(40):
        step(first, token, rng)
    before = first.get(f"/api/m/{token}").json()
    again = client_for(db)
    assert again.get(f"/api/m/{token}").json() == before
    play_to_end(again, token)


def test_a_file_that_is_not_a_match_database_is_refused(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("my shopping list\n" * 200)
    with pytest.raises(StoreError, match="not a scoutlab match database"):
        MatchStore(text)
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(StoreError, match="another program"):
        MatchStore(foreign)
    assert text.read_text().startswith("my shopping list")  # refused, never overwritten


def test_a_database_from_a_newer_scoutlab_is_refused(tmp_path):
    db = tmp_path / "matches.sqlite3"
    MatchStore(db).close()
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer scoutlab"):
        MatchStore(db)


def test_serve_reports_a_bad_database_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.db"
    bad.write_text("not sqlite at all" * 100)
    assert cli.main(["serve", "--db", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a scoutlab match database" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_move_the_database_could_not_keep_is_forgotten_in_memory_too(tmp_path, monkeypatch):
    client = client_for(tmp_path / "matches.sqlite3")
    token, _ = new_match(client, "official", 3, seed=3)
    store = client.app.state.matches.store

    def disk_full(*args):
        raise StorageFull("the match could not be saved (database or disk is full)")

    monkeypatch.setattr(store, "add_move", disk_full)
    assert client.post(f"/api/m/{token}/act", json={"action": "keep"}).status_code == 503
    monkeypatch.undo()
    state = client.get(f"/api/m/{token}").json()  # rebuilt from the file: the move never happened
    assert state["log"] == [] and state["your_turn"]


def test_a_stored_move_that_no_longer_replays_is_reported(tmp_path, caplog):
    db = tmp_path / "matches.sqlite3"
    first = client_for(db)
    token, _ = new_match(first, "official", 3, seed=2)
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO moves (token, ply, action) VALUES (?, 0, 'show 1-12')", (token,))
    with pytest.raises(MatchDamaged, match="stored move 1 'show 1-12' is refused"):
        client_for(db).app.state.matches.get(token)
    answer = client_for(db).get(f"/api/m/{token}")
    assert answer.status_code == 503 and answer.json()["error"] == "This match cannot be restored: the server's copy of it is damaged."
    assert "stored move 1 'show 1-12' is refused" in caplog.text  # why, for whoever runs the server


# -- pages ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_pages_render_in_every_language_with_the_right_direction(client, lang):
    token, _ = new_match(client)
    for path in ("/", f"/m/{token}", "/rules/official", f"/m/{token}/rules"):
        page = client.get(f"{path}?lang={lang}")
        assert page.status_code == 200
        assert f'<html lang="{lang}" dir="{"rtl" if lang in ("ar", "fa") else "ltr"}">' in page.text
    assert client.get("/", headers={"cookie": f"lang={lang}"}).text.count(f'lang="{lang}" dir=') == 1


def test_the_language_comes_from_the_browser_when_none_was_chosen(client):
    page = client.get("/", headers={"accept-language": "fr;q=1, bg;q=0.8, en;q=0.5"})
    assert '<html lang="bg"' in page.text


@pytest.mark.parametrize("variant", [name for name, _ in shipped_variants()])
def test_the_rules_page_is_the_summary_of_scoutlab_rules(client, variant):
    """Every sentence of `scoutlab rules` is on the page, but for what only the engine needs."""
    from markupsafe import escape

    from scoutlab.rules import load_rules
    from scoutlab.text.summary import render, summarize

    rules = load_rules(variant)
    text = client.get(f"/rules/{variant}").text
    summary = summarize(rules)
    engine_only = {"Plugins in force"}
    for section in summary.sections:
        for sentence in section.sentences:
            if sentence.id in ("end.cap", "strength.plugins", "score.plugins") or section.id == "plugins":
                engine_only.update(s for s, _ in render(type(summary)(summary.variant, "", (type(section)(section.id, (sentence,)),)))[0][1])
    for title, sentences in render(summary):
        if title in engine_only:
            assert str(escape(title)) not in text
            continue
        assert str(escape(title)) in text
        for sentence, items in sentences:
            if sentence in engine_only:
                assert str(escape(sentence)) not in text, sentence
                continue
            assert str(escape(sentence)) in text, sentence
            for item in items:
                assert str(escape(item)) in text
    assert ("There is no Scout &amp; Show." in text) == (rules.sns_chips == 0)
    assert ("To scout you pay one of your own Scout chips" in text) == rules.scout_pays
    for engine_word in ("Safety cap", "Plugins", "plugin", "P1 ", "seed"):
        assert engine_word not in text, engine_word


def test_the_rules_page_is_translated(client):
    two = client.get("/rules/two-player?lang=ar").text
    assert "في بداية كل جولة يأخذ كل لاعب 3 شرائح استكشاف من المخزون." in two  # 3: the plural form for 3 to 10
    official = client.get("/rules/official?lang=el").text
    assert "μετά από έναν συνδυασμό όλοι οι υπόλοιποι παίκτες έκαναν μόνο ανίχνευση" in official  # an end condition's own words
    assert "after a show" not in official
    assert client.get("/rules/nowhere").status_code == 404
