"""What one game contributes to each metric: (num, den) pairs, histogram entries and peaks.

Every game of a variant yields the same keys (with (0, 0) where a metric has nothing
to count), so tallies of different chunks and variants line up key by key.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoutlab.engine.state import NO_LEGAL_ACTION, TURN_CAP
from scoutlab.rules import Rules
from scoutlab.sim import tension
from scoutlab.sim.tally import Observation
from scoutlab.sim.trace import GameSummary

TIMING_BINS = 10  # scout timing histogram: tenths of the round


# Rule (ii) in its two forms (3-5 players: everyone else scouted; 2 players: the opponent is stuck):
# one metric, so variants of different player counts compare on the same row.
RULE_II = "rule_ii"
RULE_II_FORMS = ("everyone_scouted", "opponent_stuck")


def end_reasons(rules: Rules) -> tuple[str, ...]:
    """The ways a round of this variant can end: its end conditions (rule (ii) under one name), the turn cap, a dead end."""
    names = [reason_key(name) for name, _ in rules.end_conditions]
    return (*dict.fromkeys(names), TURN_CAP, NO_LEGAL_ACTION)


def reason_key(reason: str) -> str:
    """The metric name of a round-end reason: either form of rule (ii) is `rule_ii`."""
    return RULE_II if reason in RULE_II_FORMS else reason


def win_share(summary: GameSummary, seat: int) -> float:
    """1 for a sole winner, 1/k for each of k tied winners, else 0."""
    winners = summary.winners
    return 1 / len(winners) if seat in winners else 0.0


def observe(summary: GameSummary, reasons: Sequence[str]) -> dict[str, Observation]:
    """Every scalar metric's (num, den) for one game."""
    n = summary.players
    totals = summary.totals
    rounds = summary.rounds
    count = len(rounds)
    obs: dict[str, Observation] = {}
    for seat in range(n):
        obs[f"win.{seat}"] = (win_share(summary, seat), 1)
    obs["first_player"] = (win_share(summary, 0) - 1 / n, 1)
    obs["starter_edge"] = (sum(_starter_edge(r) for r in rounds), count)

    obs["score"] = (sum(totals), n)
    obs["score_round"] = (sum(totals), n * count)  # per round: games of 2 and 3 rounds compare
    for seat in range(n):
        obs[f"score.{seat}"] = (totals[seat], 1)
    ranked = sorted(totals, reverse=True)
    obs["margin"] = (ranked[0] - ranked[1], 1)
    obs["margin_round"] = (ranked[0] - ranked[1], count)

    turns = sum(r.turns for r in rounds)
    obs["rounds"] = (count, 1)
    obs["turns"] = (turns, 1)
    obs["turns_per_round"] = (turns, count)
    for reason in reasons:
        obs[f"end.{reason}"] = (sum(reason_key(r.reason) == reason for r in rounds), count)

    scouts = [(t, r.turns) for r in rounds for t in r.scout_turns]
    sns = [(t, r.turns) for r in rounds for t in r.sns_turns]
    obs["scouts"] = (len(scouts), count)
    obs["sns"] = (len(sns), count)
    obs["scout_turn"] = (sum(t for t, _ in scouts), len(scouts))
    obs["scout_timing"] = (sum(_elapsed(t, length) for t, length in scouts), len(scouts))
    obs["sns_turn"] = (sum(t for t, _ in sns), len(sns))
    obs["sns_timing"] = (sum(_elapsed(t, length) for t, length in sns), len(sns))
    obs["captured"] = (sum(r.captured for r in rounds), count)

    obs["branching"] = (summary.options, summary.decisions)
    obs["branching_max"] = (summary.widest, 1)
    obs["forced"] = (summary.forced, summary.decisions)

    lead, winners = summary.lead, summary.winners
    changes = tension.lead_changes(lead)
    obs["lead_changes"] = (changes, 1)
    obs["lead_changes_round"] = (changes, count)
    obs["lead_change_rate"] = (changes / max(len(lead) - 1, 1), 1)
    obs["drama"] = (tension.drama(lead, winners), 1)
    obs["security"] = (tension.security(lead, winners), 1)
    obs["deficit"] = (tension.winner_deficit(lead, winners), 1)
    obs["decisiveness"] = (tension.decisiveness(lead, winners), 1)
    return obs


def histograms(summary: GameSummary) -> dict[str, list]:
    """Entries for the distributions the charts draw."""
    hist: dict[str, list] = {f"score.{seat}": [total] for seat, total in enumerate(summary.totals)}
    ranked = sorted(summary.totals, reverse=True)
    hist["margin"] = [ranked[0] - ranked[1]]
    hist["round_turns"] = [r.turns for r in summary.rounds]
    hist["scout_timing"] = [_tenth(t, r.turns) for r in summary.rounds for t in r.scout_turns]
    hist["sns_timing"] = [_tenth(t, r.turns) for r in summary.rounds for t in r.sns_turns]
    return hist


def peaks(summary: GameSummary) -> dict[str, float]:
    return {"branching_max": summary.widest}


def skill(summary: GameSummary, strong_seat: int) -> dict[str, Observation]:
    """A skill game (one strong bot among weaker ones): its win share, skill depth and luck.

    Skill depth rescales the win share w so that 0 is the fair share 1/n and 1 is winning
    every game: (w - 1/n) / (1 - 1/n); luck is how often the weaker side still wins, 1 - w.
    """
    share = win_share(summary, strong_seat)
    fair = 1 / summary.players
    return {"skill_win": (share, 1), "skill_depth": ((share - fair) / (1 - fair), 1), "luck": (1 - share, 1)}


def _starter_edge(round_facts) -> float:
    """The round starter's score minus the mean of the other seats' scores in that round."""
    scores = round_facts.scores
    others = [s for seat, s in enumerate(scores) if seat != round_facts.starter]
    return scores[round_facts.starter] - sum(others) / len(others)


def _elapsed(turn: int, length: int) -> float:
    """How far into its round a turn falls, in (0, 1): the middle of the turn over the round's turns."""
    return (turn - 0.5) / length


def _tenth(turn: int, length: int) -> int:
    return min(int(_elapsed(turn, length) * TIMING_BINS), TIMING_BINS - 1)
