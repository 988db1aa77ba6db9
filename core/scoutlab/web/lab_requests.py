"""The variant lab's requests read and its answers worded: every field checked, each refusal one sentence in the
request's language. Plain functions of the request's JSON and a Gettext, no web machinery: the routes (lab.py)
call them, in a worker thread where they load or compile rules.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from scoutlab.base.limits import digits as is_digits
from scoutlab.rules import Rules, load_rules
from scoutlab.text import i18n
from scoutlab.text.i18n import N_, Gettext
from scoutlab.text.variant_text import title as variant_title
from scoutlab.web.context import gettext_of
from scoutlab.web.inputs import BadInput, parse_json, sent, whole_number
from scoutlab.web.lab_jobs import MAX_GAMES, MAX_SWEEP_VALUES, Ask, Job, Refused
from scoutlab.web.lab_spec import (
    MAX_SPEC_BYTES,
    SWEEPABLE,
    differences,
    knob,
    knob_values,
    load,
    parent_of,
    problem_line,
    set_knob,
    shipped_names,
    starter,
)
from scoutlab.web.rulespage import rules_sections

#: The games a new run offers by default: a quick first look.
DEFAULT_GAMES = 100
#: Files a job offers for download, with their labels.
DOWNLOADS = {
    "report.html": N_("The report (HTML)"),
    "games.csv": N_("One row per game and seat (CSV)"),
    "rounds.csv": N_("One row per round and seat (CSV)"),
    "games.parquet": N_("One row per game and seat (Parquet)"),
    "rounds.parquet": N_("One row per round and seat (Parquet)"),
}
#: The simulator's charts by their file stem, titled in the page's language (the pictures' own words are English).
CHART_TITLES = {
    "scores": N_("Final score distribution per seat"),
    "win_rates": N_("Seat win rates with 95% intervals"),
    "round_lengths": N_("Round length in turns"),
    "end_reasons": N_("How rounds end, with 95% intervals"),
    "scout_timing": N_("When scouts happen in a round, with 95% intervals"),
}


class Unfit(ValueError):
    """A check refused with its status (400 or 422) and one sentence in the request's language."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object (the Guard has capped its size); BadInput saying where its JSON goes wrong, or with no
    message for JSON that is not an object."""
    body = parse_json(await request.body(), gettext_of(request))
    if not isinstance(body, dict):
        raise BadInput("")
    return body


def text_of(body: dict[str, Any], _: Gettext) -> str:
    """The variant's YAML the request sends, at most MAX_SPEC_BYTES; BadInput otherwise."""
    text = body.get("text", "")
    if not isinstance(text, str):
        raise BadInput(_("text must be the variant's YAML, as text."))
    if len(text) > MAX_SPEC_BYTES or len(text.encode("utf-8", "replace")) > MAX_SPEC_BYTES:
        raise BadInput(_("A variant spec may be at most {size} KB.", size=MAX_SPEC_BYTES // 1024))
    return text


def no_variant(name: Any, _: Gettext) -> str:
    return _("There is no variant called {name}.", name=sent(name))


def written(text: str, start: Any, change: Any, _: Gettext) -> str:
    """The text a check is about: a shipped variant's starter for `start`, then `change` ({path, value}) set in it
    (call in a worker thread); Unfit, KnobRefused, TooDeep."""
    if start is not None:
        if not isinstance(start, str) or start not in shipped_names():
            raise Unfit(422, no_variant(start, _))
        text = starter(start)
    if change is not None:
        if not isinstance(change, dict) or not isinstance(change.get("path"), str):
            raise Unfit(400, _("set must be a JSON object with a path and a value."))
        text = set_knob(text, change["path"], change.get("value"))
    return text


def checked(text: str, _: Gettext) -> dict[str, Any]:
    """The text, its problems and warnings as `scoutlab validate` words them, and when valid its knobs, rules and diff."""
    rules, problems, warned = load(text)
    answer: dict[str, Any] = {"text": text, "valid": rules is not None, "problems": [problem_line(p, _) for p in problems[:20]],
                              "warnings": [problem_line(w, _) for w in warned[:20]]}
    if rules is None:
        return answer
    parent = parent_of(rules, text)
    lang = language_of(_)
    answer.update(
        knobs=knob_values(rules), players=list(rules.players), parent=parent,
        parent_title=variant_title(load_rules(parent).spec.doc, lang), title=variant_title(rules.spec.doc, lang),
        rules=[{"title": s["title"], "sentences": [{"text": x["text"], "items": x["items"]} for x in s["sentences"]]}
               for s in rules_sections(rules, _)],
        diff=differences(rules, parent, _),
    )
    return answer


def language_of(_: Gettext) -> str:
    return getattr(_, "lang", i18n.DEFAULT)


def ask_of(body: dict[str, Any], text: str, _: Gettext) -> Ask:
    """The run a request asks for, every field checked in this order (call in a worker thread); BadInput or Refused."""
    kind = body.get("kind")
    if kind not in ("compare", "sweep"):
        raise BadInput(_("Choose a comparison or a sweep."))
    games, players = games_of(body, _), players_of(body, _)
    rules, problems, _warned = load(text)
    if rules is None:
        raise BadInput(_("Fix the variant's problems first: {problem}", problem=problem_line(problems[0], _)))
    check_players(rules, players, _)
    if kind == "compare":
        return compare_ask(body, text, rules, players, games, _)
    return sweep_ask(body, text, players, games, _)


def games_of(body: dict[str, Any], _: Gettext) -> int:
    """The games per variant: a whole number (a huge one read by its length first) up to MAX_GAMES."""
    games = whole_number(body.get("games", DEFAULT_GAMES), 1, 10**9,
                         _("The number of games must be a whole number from 1 to {most}.", most=MAX_GAMES))
    if games > MAX_GAMES:
        raise Refused(N_("A run plays from 1 to {most} games per variant."), most=MAX_GAMES)
    return games


def players_of(body: dict[str, Any], _: Gettext) -> int | None:
    """The number of players asked for, or None (empty, 0): the run plays each count the variant allows."""
    players = body.get("players")
    if players is None or (not isinstance(players, bool) and players in ("", 0, "0")):  # false == 0 is no count
        return None
    return whole_number(players, 2, 5, _("The number of players must be a whole number from {low} to {high}.", low=2, high=5))


def check_players(rules: Rules, players: int | None, _: Gettext) -> None:
    if players is not None and players not in rules.players:
        raise BadInput(_("The variant {variant} is for {counts} players, not {players}.", variant=rules.name,
                         counts=", ".join(map(str, rules.players)), players=players))


def compare_ask(body: dict[str, Any], text: str, rules: Rules, players: int | None, games: int, _: Gettext) -> Ask:
    """A comparison with `against`, a shipped variant (the text's parent unless named)."""
    against = body.get("against") or parent_of(rules, text)
    if not isinstance(against, str) or against not in shipped_names():
        raise BadInput(no_variant(against, _))
    check_players(load_rules(against), players, _)
    tune = body.get("tune", False)
    if not isinstance(tune, bool):
        raise BadInput(_("Fitting the bots first is a yes or no (true or false)."))
    return Ask("compare", text, against=against, players=players, games=games, tune=tune)


def sweep_ask(body: dict[str, Any], text: str, players: int | None, games: int, _: Gettext) -> Ask:
    """A sweep of one whole-number knob over the values the request lists."""
    path = body.get("knob")
    found = knob(path) if isinstance(path, str) else None
    if found is None or found not in SWEEPABLE:
        raise BadInput(_("Choose a field to sweep: {names}.", names=", ".join(k.path for k in SWEEPABLE)))
    numbers = sweep_values(body.get("values"), found.low, found.high, _)
    return Ask("sweep", text, players=players, games=games, knob=found.path, values=numbers)


def sweep_values(values: Any, low: int, high: int, _: Gettext) -> tuple[int, ...]:
    """2 to MAX_SWEEP_VALUES different whole numbers from low to high, as "1, 2, -3"; BadInput otherwise."""
    message = _("Give {fewest} to {most} different whole numbers from {low} to {high}, separated by commas.",
                fewest=2, most=MAX_SWEEP_VALUES, low=low, high=high)
    if not isinstance(values, str) or len(values) > 200:
        raise BadInput(message)
    parts = [small_number(part.strip()) for part in values.split(",") if part.strip()]
    numbers = tuple(n for n in parts if n is not None)
    if len(numbers) != len(parts) or not 2 <= len(numbers) <= MAX_SWEEP_VALUES or len(set(numbers)) != len(numbers):
        raise BadInput(message)
    if not all(low <= n <= high for n in numbers):
        raise BadInput(message)
    return numbers


def small_number(part: str) -> int | None:
    """A whole number of at most three digits, maybe negative; None for anything else (checked before any int())."""
    digits = part.removeprefix("-")
    if not is_digits(digits) or len(digits) > 3:
        return None
    return -int(digits) if part.startswith("-") else int(digits)


def job_json(job: Job, _: Gettext) -> dict[str, Any]:
    """A job as the page reads it: its state, progress and ask, and once finished its findings, charts and files."""
    done, total = job.progress
    ask = job.ask
    answer: dict[str, Any] = {
        "id": job.id, "state": job.state, "done": done, "total": total, "fitting": job.fitting, "timed_out": job.timed_out,
        "ask": {"kind": ask.kind, "text": ask.text, "against": ask.against, "players": ask.players or 0, "games": ask.games,
                "knob": ask.knob, "values": ", ".join(map(str, ask.values)), "tune": ask.tune},
        "error": _(job.error, **job.error_fields) if job.error else "",
    }
    result = job.result()
    if result is not None:
        answer["done"], answer["interrupted"] = done, result["interrupted"]
        answer["findings"] = result["findings"]
        answer["charts"] = [chart_json(job, chart, _) for chart in result["charts"]]
        answer["files"] = [{"url": f"/lab/jobs/{job.id}/{name}", "label": _(DOWNLOADS[name])}
                           for name in result["files"] if name in DOWNLOADS]
    return answer


def chart_json(job: Job, chart: dict[str, Any], _: Gettext) -> dict[str, Any]:
    """A chart of a finished job: its address, its title in the page's language when the lab knows it, its caption."""
    stem = chart.get("stem")
    title = _(CHART_TITLES[stem]) if stem in CHART_TITLES else chart["title"]
    return {"url": f"/lab/jobs/{job.id}/{chart['file']}", "title": title, "caption": chart["caption"]}
