"""The variant lab's endpoints: checking as `scoutlab validate` words it, the form's knobs, the diff and rules, and runs as
jobs (start, progress, finish, reload, cancel, caps, the time limit, expiry). Runs are tiny: a few games each."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import signal
import subprocess
import sys
import time

import pytest
from lab_helpers import HOUSE, deaf_play, lab_client, wait_for
from test_no_english_left import english_in
from web_helpers import readable

from scoutlab.base.errors import Problem
from scoutlab.spec.variant import shipped_variants
from scoutlab.text.i18n import gettext_for
from scoutlab.web import lab_jobs
from scoutlab.web.lab_jobs import MAX_GAMES, MAX_JOB_GAMES, Jobs
from scoutlab.web.lab_spec import FILENAME, PLUGIN_LABELS, condition_label, knob, problem_line


@pytest.fixture
def jobs(tmp_path):
    made = Jobs(tmp_path / "lab")
    yield made
    made.close()


@pytest.fixture
def client(jobs, tmp_path):
    return lab_client(jobs, tmp_path)


def check(client, **body) -> dict:
    answer = client.post("/lab/api/check", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


BAD = """schema_version: 1
extends: official
name: broken
scoring:
  chip_received: two
players: [2, 3]
end_conditions: [hand_emptied, nobody_knows]
"""


def test_problems_are_the_lines_scoutlab_validate_prints_without_the_file_name(client, tmp_path):
    (tmp_path / "variant.yaml").write_text(BAD, encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from scoutlab.cli import main; sys.exit(main())", "validate", "variant.yaml"]
    cli = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert cli.returncode == 1
    printed = [line.removeprefix("variant.yaml:") for line in cli.stderr.splitlines() if line.startswith("variant.yaml:")]
    answer = check(client, text=BAD)
    assert not answer["valid"] and len(printed) >= 2
    assert answer["problems"] == printed
    assert answer["problems"][0].startswith("5: $.scoring.chip_received: ")


def test_problems_are_said_in_the_page_language_with_line_and_path_kept(client):
    answer = client.post("/lab/api/check?lang=fa", json={"text": BAD}).json()
    english = check(client, text=BAD)
    assert [p.split(": ", 2)[:2] for p in answer["problems"]] == [p.split(": ", 2)[:2] for p in english["problems"]]
    assert answer["problems"] != english["problems"]  # the messages themselves are translated


def test_starting_from_each_shipped_variant_gives_a_valid_house_rule_with_no_differences(client):
    for name, _description in shipped_variants():
        answer = check(client, text="", start=name)
        assert answer["valid"], (name, answer["problems"])
        assert f"extends: {name}" in answer["text"] and answer["diff"] == [] and answer["parent"] == name
        assert answer["rules"] and all(section["title"] for section in answer["rules"])


def test_a_knob_set_in_the_form_is_written_into_the_yaml_and_read_back(client):
    start = check(client, text="", start="official")
    assert start["knobs"]["scoring.chip_received"] == 1
    answer = check(client, text=start["text"], set={"path": "scoring.chip_received", "value": 3})
    assert "chip_received: 3" in answer["text"] and answer["knobs"]["scoring.chip_received"] == 3
    assert answer["diff"] == [{"path": "$.scoring.chip_received", "rule": "Points per Scout chip received", "parent": "1", "value": "3",
                               "worded": True}]
    both = check(client, text=answer["text"], set={"path": "players", "value": [4, 3]})
    assert both["knobs"]["players"] == [3, 4] and both["knobs"]["scoring.chip_received"] == 3
    kept = check(client, text=both["text"], set={"path": "scoring.unspent_scout_show_chip", "value": 2})
    assert kept["knobs"]["scoring.unspent_scout_show_chip"] == 2 and any(d["path"] == "$.scoring.unspent_scout_show_chip" for d in kept["diff"])
    rounds = check(client, text=both["text"], set={"path": "rounds.count", "value": 2})
    assert rounds["knobs"]["rounds.count"] == 2 and any(d["path"] == "$.rounds.count" for d in rounds["diff"])
    assert rounds["knobs"]["rounds.lowest_total_starts"] is False
    catch_up = check(client, text=rounds["text"], set={"path": "rounds.lowest_total_starts", "value": True})
    assert "lowest_total_starts: true" in catch_up["text"] and catch_up["knobs"]["rounds.lowest_total_starts"] is True
    assert {"path": "$.rounds.lowest_total_starts", "rule": "The player with the lowest total starts each round after the first",
            "parent": "no", "value": "yes", "worded": True} in catch_up["diff"]
    assert catch_up["knobs"]["rounds.count"] == 2  # its neighbour under rounds: kept


COMMENTED = """schema_version: 1
extends: official   # the publisher's game
name: mine
kind: house
# what we changed at the club
scoring:
  chip_received: 1  # one point a chip
  card_in_hand: -1
"""


def test_the_form_rewrites_only_the_line_of_its_knob_and_keeps_the_comments(client):
    answer = check(client, text=COMMENTED, set={"path": "scoring.chip_received", "value": 2})
    assert answer["text"] == COMMENTED.replace("chip_received: 1  # one point a chip", "chip_received: 2  # one point a chip")
    added = check(client, text=COMMENTED, set={"path": "scout_and_show.chips_per_round", "value": 2})
    assert added["text"] == COMMENTED + "scout_and_show:\n  chips_per_round: 2\n"
    inside = check(client, text=COMMENTED, set={"path": "scoring.captured_card", "value": 3})
    assert inside["text"] == COMMENTED.replace("  card_in_hand: -1\n", "  card_in_hand: -1\n  captured_card: 3\n")
    assert inside["knobs"]["scoring.captured_card"] == 3 and inside["knobs"]["scoring.chip_received"] == 1


def test_a_knob_in_flow_style_or_a_block_list_is_written_by_writing_the_document_again(client):
    flow = check(client, text=HOUSE, set={"path": "scoring.card_in_hand", "value": 0})
    assert "scoring: {chip_received: 2, card_in_hand: 0}" in flow["text"]
    listed = check(client, text=HOUSE + "players:\n  - 3\n  - 4\n", set={"path": "players", "value": [3]})
    assert listed["knobs"]["players"] == [3] and "- 4" not in listed["text"]


def test_text_typed_by_hand_sets_the_form(client):
    answer = check(client, text=HOUSE + "scout_and_show: {chips_per_round: 2}\n")
    assert answer["knobs"]["scout_and_show.chips_per_round"] == 2 and answer["knobs"]["scoring.chip_received"] == 2


@pytest.mark.parametrize(("change", "fragment"), [
    ({"path": "scoring.chip_received", "value": 99}, "not one the field"),
    ({"path": "scoring.chip_received", "value": True}, "not one the field"),
    ({"path": "players", "value": [7]}, "not one the field"),
    ({"path": "deck.highest", "value": 3}, "no field called"),
    ({"path": "name", "value": "x" * 5000}, "not one the field"),
])
def test_a_form_value_it_does_not_offer_is_refused_in_one_line(client, change, fragment):
    answer = client.post("/lab/api/check", json={"text": HOUSE, "set": change})
    assert answer.status_code == 422 and fragment in answer.json()["error"]
    assert "x" * 100 not in answer.text


@pytest.mark.parametrize("text", [
    "a: [1, 2\n",
    # a key given twice: the rewrite kept the second block and dropped card_in_hand without a word
    "schema_version: 1\nextends: official\nname: my-x\nkind: house\nscoring:\n  card_in_hand: 0\nscoring:\n  chip_received: 2\n",
])
def test_the_form_refuses_to_rewrite_text_it_cannot_read(client, text):
    answer = client.post("/lab/api/check", json={"text": text, "set": {"path": "scoring.captured_card", "value": 3}})
    assert answer.status_code == 422 and "Fix the YAML first" in answer.json()["error"]


def test_a_plugin_listed_in_the_text_is_ticked_in_the_form_and_written_by_it(client):
    answer = check(client, text=HOUSE.replace("kind: house\n", "kind: house\nplugins: [{name: wrap-runs, config: {lowest: 1, highest: 10}}]\n"))
    assert answer["valid"] and answer["knobs"]["plugins"] == ["wrap-runs"]
    written = check(client, text=HOUSE, set={"path": "plugins", "value": ["runs-beat-sets"]})
    assert written["knobs"]["plugins"] == ["runs-beat-sets"] and any(d["path"] == "$.plugins" for d in written["diff"])


def test_the_diff_says_a_form_field_in_the_page_words_and_any_other_rule_as_the_yaml_writes_it(client):
    text = ("schema_version: 1\nextends: official\nname: mine\nkind: house\nscoring: {exempt_last_show_owner: false}\n"
            "end_conditions: [hand_emptied]\nplugins: [wrap-runs]\nscout: {extra_turn: true}\n")
    _ = gettext_for("fa")
    rows = client.post("/lab/api/check?lang=fa", json={"text": text}).json()["diff"]
    assert rows == [
        {"path": "$.scout.extra_turn", "rule": "", "parent": "false", "value": "true", "worded": False},
        {"path": "$.scoring.exempt_last_show_owner", "rule": _(knob("scoring.exempt_last_show_owner").label),
         "parent": _("yes"), "value": _("no"), "worded": True},
        {"path": "$.end_conditions", "rule": _(knob("end_conditions").label),
         "parent": condition_label("hand_emptied", _) + "\n" + condition_label("everyone_scouted", _),
         "value": condition_label("hand_emptied", _), "worded": True},
        {"path": "$.plugins", "rule": _(knob("plugins").label), "parent": "—", "value": _(PLUGIN_LABELS["wrap-runs"]), "worded": True},
    ]


@pytest.mark.parametrize("name", ["nope", "noopy", "builtinn"])
def test_an_unknown_plugin_points_at_the_plugins_the_form_offers_only(client, name):
    text = f"schema_version: 1\nextends: official\nname: mine\nplugins: [{name}]\n"
    [problem] = check(client, text=text)["problems"]
    assert problem == f"4: $.plugins[0]: unknown plugin '{name}' (available: runs-beat-sets, wrap-runs)"
    assert check(client, text=text.replace(name, "wrap-run"))["problems"] == [
        "4: $.plugins[0]: unknown plugin 'wrap-run'; did you mean 'wrap-runs'?"]  # a plugin the form offers: as it was


def test_the_form_offers_end_conditions_and_plugins_by_their_words_with_their_keys(client):
    page = client.get("/lab?lang=ar").text
    _ = gettext_for("ar")
    for name in ("hand_emptied", "everyone_scouted", "opponent_stuck"):
        assert f'value="{name}"' in page and condition_label(name, _) in page
    assert _(PLUGIN_LABELS["wrap-runs"]) in page and 'lang="en" dir="ltr">wrap-runs</code>' in page
    assert 'value="noop"' not in page and 'value="builtin"' not in page


def test_a_problem_in_the_text_drops_the_file_name_and_one_elsewhere_keeps_it():
    english = gettext_for("en")
    assert problem_line(Problem(FILENAME, 3, "$.scoring.chip_received", "expected a whole number"), english) == \
        "3: $.scoring.chip_received: expected a whole number"
    assert problem_line(Problem("variant official", 28, "$.deal.hand_size.5", "expected a whole number"), english) == \
        "variant official:28: $.deal.hand_size.5: expected a whole number"


def test_a_comparison_runs_reports_progress_and_findings_and_offers_the_data(client, jobs):
    answer = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 6})
    assert answer.status_code == 200, answer.text
    job_id = answer.json()["id"]
    assert answer.json()["url"] == f"/lab?job={job_id}"
    job = wait_for(client, job_id)
    assert job["state"] == "finished", job
    assert job["total"] > 0 and job["done"] == job["total"]
    assert job["ask"]["against"] == "official" and job["ask"]["text"] == HOUSE
    assert any("chips-two" in line for line in job["findings"])
    assert any(line.startswith("Caveat: the skilled bots of chips-two") for line in job["findings"])  # untuned
    assert job["charts"] and all(c["url"].endswith(".png") for c in job["charts"])
    assert client.get(job["charts"][0]["url"]).headers["content-type"] == "image/png"
    urls = {f["url"].rsplit("/", 1)[1]: f["url"] for f in job["files"]}
    assert {"report.html", "games.csv", "rounds.csv"} <= set(urls)
    rows = list(csv.DictReader(io.StringIO(client.get(urls["games.csv"]).text)))
    assert {row["variant"] for row in rows} == {"official (3p)", "chips-two (3p)"}
    download = client.get(urls["report.html"])
    assert "attachment" in download.headers["content-disposition"] and "Findings" in download.text
    # a reload asks again by id: the same job, still there
    assert client.get(f"/lab/api/jobs/{job_id}").json()["findings"] == job["findings"]


def test_a_comparison_can_fit_the_bots_to_the_variant_first_in_its_own_folder(client, jobs, tmp_path):
    answer = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 4, "tune": True})
    assert answer.status_code == 200, answer.text
    job = wait_for(client, answer.json()["id"])
    assert job["state"] == "finished" and job["ask"]["tune"] is True and not job["fitting"], job
    first = job["findings"][0]
    assert first.startswith("Fitted first: a quick tuning of the skilled bots of chips-two at 3 players (5 generations "
                            "of 8 candidates"), first
    assert ("found weights that won clearly more" in first) != ("found no weights clearly better" in first)
    assert " against skilled:weights=official; start " in first and " points on the same games (standard error " in first
    assert not any(line.startswith("Caveat: the skilled bots of") for line in job["findings"])  # tuned now
    folder = tmp_path / "lab" / job["id"]
    assert [path.name.endswith("-3.json") for path in (folder / "tuned").iterdir()] == [True]  # the job's, not shared
    assert client.get(f"/lab/jobs/{job['id']}/tuned").status_code == 404


def test_the_time_limit_while_the_bots_are_fitted_fails_the_run_in_one_line(client, jobs):
    job_id = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 4, "tune": True}).json()["id"]
    playing = wait_for(client, job_id, lambda job: job["done"] > 0)  # a generation of the tuning played
    assert playing["fitting"] and playing["total"] == 5 * 8 * 100 + 4 * 400, playing  # the tuning's games at most, said so
    jobs.max_seconds = 0
    job = wait_for(client, job_id)
    assert job["state"] == "failed" and job["timed_out"], job
    assert job["error"] == "The time ran out while the bots were being fitted to the variant, before any game of the run."


def test_a_sweep_runs_each_value(client):
    answer = client.post("/lab/api/jobs", json={"kind": "sweep", "text": HOUSE, "games": 4, "knob": "scoring.card_in_hand",
                                                "values": "-1, 0"})
    assert answer.status_code == 200, answer.text
    job = wait_for(client, answer.json()["id"])
    assert job["state"] == "finished", job
    assert any("card_in_hand" in line for line in job["findings"])


def test_cancel_stops_the_process_and_its_progress(client, jobs):
    job_id = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": MAX_GAMES}).json()["id"]
    wait_for(client, job_id, lambda job: job["done"] > 0)
    answer = client.post(f"/lab/api/jobs/{job_id}/cancel")
    assert answer.json()["state"] == "cancelled"
    process = jobs.get(job_id).process
    assert not process.is_alive()
    stopped = client.get(f"/lab/api/jobs/{job_id}").json()["done"]
    assert stopped < answer.json()["total"] and "findings" not in client.get(f"/lab/api/jobs/{job_id}").json()
    assert client.get(f"/lab/jobs/{job_id}/games.csv").status_code == 404  # cut mid-write: never served


def test_more_jobs_than_run_at_once_are_refused_until_one_ends(tmp_path):
    jobs = Jobs(tmp_path / "lab", max_running=1)
    client = lab_client(jobs, tmp_path)
    try:
        first = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": MAX_GAMES}).json()["id"]
        second = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 2})
        assert second.status_code == 503 and "as it can at once" in second.json()["error"]
        client.post(f"/lab/api/jobs/{first}/cancel")
        assert client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 2}).status_code == 200
    finally:
        jobs.close()


def test_the_time_limit_stops_a_run_which_keeps_what_it_played(client, jobs):
    job_id = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": MAX_GAMES}).json()["id"]
    wait_for(client, job_id, lambda job: job["done"] > 0)  # playing: past its imports, its SIGINT handler set
    jobs.max_seconds = 0  # the limit passes now: the watcher interrupts the run at its next look
    job = wait_for(client, job_id)
    assert job["state"] == "finished" and job["timed_out"] and job["interrupted"], job
    assert 0 < job["done"] < job["total"] and job["findings"]


def test_a_run_that_cannot_stop_in_time_is_terminated_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(lab_jobs, "play", deaf_play)  # its process blocks SIGINT
    jobs = Jobs(tmp_path / "lab", grace_seconds=0)
    client = lab_client(jobs, tmp_path)
    try:
        job_id = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": MAX_GAMES}).json()["id"]
        wait_for(client, job_id, lambda job: job["done"] > 0)  # playing: its per-game CSV is being written
        process = jobs.get(job_id).process
        jobs.max_seconds = 0  # the limit passes now: the SIGINT goes unheard, so the grace's end is what stops it
        job = wait_for(client, job_id)
        assert job["state"] == "failed" and job["timed_out"], job
        assert job["error"] == "The run passed the time limit of 0 seconds and was stopped."
        assert not {"findings", "charts", "files", "interrupted"} & set(job)
        assert not process.is_alive() and process.exitcode == -signal.SIGTERM  # terminated, not ended by itself
        folder = tmp_path / "lab" / job_id
        # Cut mid-run: its rows so far were in a part file, which SIGTERM removed, never moved into place as games.csv.
        assert not (folder / "games.csv").exists() and not list(folder.glob(".games.csv.*.part"))
        assert not (folder / "result.json").exists() and not (folder / "result.json.part").exists()
        for name in ("games.csv", "rounds.csv", "report.html", "chart-0.png"):
            assert client.get(f"/lab/jobs/{job_id}/{name}").status_code == 404, name
        assert client.get(f"/lab/api/jobs/{job_id}").json() == job  # the same answer on every later look
    finally:
        jobs.close()


def test_finished_runs_are_forgotten_after_their_time(tmp_path):
    jobs = Jobs(tmp_path / "lab", keep_seconds=0)
    client = lab_client(jobs, tmp_path)
    try:
        job_id = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 2}).json()["id"]
        wait_for(client, job_id, lambda job: job.get("state") != "running")  # a 404 (already forgotten) ends the wait too
        deadline = time.monotonic() + 30
        while client.get(f"/lab/api/jobs/{job_id}").status_code == 200 and time.monotonic() < deadline:
            time.sleep(0.3)
        gone = client.get(f"/lab/api/jobs/{job_id}")
        assert gone.status_code == 404 and "no lab run" in gone.json()["error"]
        assert not (tmp_path / "lab" / job_id).exists()
    finally:
        jobs.close()


@pytest.mark.parametrize(("body", "fragment"), [
    ({"games": MAX_GAMES + 1}, f"from 1 to {MAX_GAMES} games"),
    ({"kind": "sweep", "games": MAX_JOB_GAMES // 4, "knob": "scoring.chip_received", "values": "0,1,2,3,4,5"}, f"at most {MAX_JOB_GAMES}"),
    ({"kind": "sweep", "knob": "scoring.chip_received", "values": "1"}, "different whole numbers"),
    ({"kind": "sweep", "knob": "deck.highest", "values": "1,2"}, "Choose a field to sweep"),
    ({"players": 2}, "is for 3, 4, 5 players, not 2"),
    ({"against": "nowhere"}, "no variant called"),
    ({"text": BAD}, "Fix the variant's problems first: 5: $.scoring.chip_received"),
])
def test_a_run_past_the_caps_or_on_a_broken_variant_is_refused_in_one_line(client, jobs, body, fragment):
    answer = client.post("/lab/api/jobs", json={"kind": "compare", "text": HOUSE, "games": 2, **body})
    assert answer.status_code == 422, answer.text
    assert fragment in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert jobs.running() == 0


def test_the_page_and_its_files_carry_the_security_headers(client):
    page = client.get("/lab")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script>" not in page.text and 'src="/static/lab.js"' in page.text
    assert client.get("/lab", headers={"host": "evil.example"}).status_code == 421
    cross = client.post("/lab/api/check", json={"text": HOUSE}, headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403


def test_the_app_serves_the_lab_behind_its_doors(tmp_path):
    from web_helpers import client_for

    app_client = client_for(tmp_path / "matches.sqlite3")
    page = app_client.get("/lab")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
    assert app_client.get("/static/lab.js").status_code == 200 and app_client.get("/static/lab.css").status_code == 200
    assert 'href="/lab"' in app_client.get("/").text  # the start page's link
    too_big = app_client.post("/lab/api/check", content=b'{"text": "' + b"x" * 200_000 + b'"}', headers={"content-type": "application/json"})
    assert too_big.status_code == 413


def test_the_page_is_in_the_chosen_language_and_right_to_left_for_arabic_and_persian(client):
    for lang, direction in (("ar", "rtl"), ("fa", "rtl"), ("el", "ltr"), ("bg", "ltr"), ("en", "ltr")):
        page = client.get(f"/lab?lang={lang}").text
        assert f'lang="{lang}" dir="{direction}"' in page
        if lang == "en":
            continue
        script_words = json.loads(html.unescape(re.search(r"data-strings='([^']*)'", page).group(1)))
        answer = client.post(f"/lab/api/check?lang={lang}", json={"text": "", "start": "house-wrap"}).json()
        text = " ".join([readable(page), *script_words.values(), json.dumps(answer["rules"], ensure_ascii=False)])
        assert english_in(text, lang) == [], lang
        assert "Variant lab" not in page and "Start the run" not in page
