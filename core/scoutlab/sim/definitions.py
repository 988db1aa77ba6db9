"""Where each metric is defined: its heading in docs/metrics.md and a one-line definition for the report.

docs/metrics.md holds the full definitions and sources; the HTML report links every
row and chart to a Definitions section on the page that repeats the line below and
names the docs/metrics.md section, so a reader of a page sent by mail still knows
what a number means. A test checks that every metric
has an entry and that every anchor is a heading of docs/metrics.md.
"""

from __future__ import annotations

# anchor -> (heading, one-line definition with its source)
DEFINITIONS: dict[str, tuple[str, str]] = {
    "seat-win-rates": ("Seat win rates", "Share of games each seat wins; a k-way tie gives each winner 1/k. Wilson interval."),
    "seat-fairness": ("Seat fairness", "Chi-square goodness of fit of the seats' wins against 1/n each (df = n - 1)."),
    "first-player-advantage": ("First-player advantage", "P1's win rate minus the fair share 1/n: the edge of starting the game."),
    "round-starters-score-edge": ("Round starter's score edge", "In each round, the starter's round score minus the mean of the others', averaged over rounds."),
    "score-per-player": ("Score per player", "Mean final total per seat (per game: games with more rounds score more)."),
    "score-per-player-per-round": ("Score per player per round", "Final totals over players times rounds: compares games of different lengths."),
    "score-spread": ("Score spread", "Standard deviation of a seat's final total; percentile bootstrap interval (Efron & Tibshirani 1993)."),
    "winners-margin": ("Winner's margin", "Winner's total minus the runner-up's, per game and per round."),
    "rounds-and-turns": ("Rounds and turns", "Rounds per game, turns per game and turns per round (a turn is one move of play)."),
    "how-rounds-end": ("How rounds end", "Share of rounds ended by (i) an emptied hand, (ii) a show that stood (everyone else scouted, or in two-player the opponent is stuck), the turn cap or a dead end."),
    "scouts-per-round": ("Scouts per round", "Plain scouts and Scout & Shows per round, all seats together."),
    "scout-timing": ("Scout timing", "How far through its round a scout falls: (turn - 1/2) / turns in the round."),
    "cards-captured-per-round": ("Cards captured per round", "Cards taken as score cards by all seats in a round."),
    "branching-factor": ("Branching factor", "Legal actions per decision (mean, and the widest decision of a game)."),
    "forced-decisions": ("Forced decisions", "Share of decisions with exactly one legal action."),
    "lead-changes": ("Lead changes", "How often a different seat goes strictly ahead on running score; per game, per round and per move (Ludii, Browne 2008)."),
    "drama-cardstock": ("Drama (CardStock)", "Mean of sqrt(threshold - rank) over the points where the eventual winner trails (Bell & Goadrich 2016)."),
    "security-cardstock": ("Security (CardStock)", "1 - the share of points at which the eventual winner was trailing (Bell & Goadrich 2016)."),
    "winners-mean-deficit-ludii-drama": ("Winner's mean deficit (Ludii drama)", "Mean of the best running score minus the winner's, over the game (Ludii's Drama)."),
    "decisiveness-ludii": ("Decisiveness (Ludii)", "Share of the game played before a winner passes every loser's peak (Ludii's DecisivenessMoves)."),
    "skill-depth": ("Skill depth", "A stronger bot's win rate w among weaker ones, normalised (w - 1/n)/(1 - 1/n): 0 = only its fair share, 1 = always wins."),
    "luck": ("Luck", "How often the weaker side still wins: 1 - w in the same skill games."),
}

# metric key (or key prefix ending in ".") -> anchor
ANCHORS = {
    "win.": "seat-win-rates", "first_player": "first-player-advantage", "starter_edge": "round-starters-score-edge",
    "score": "score-per-player", "score.": "score-per-player", "score_round": "score-per-player-per-round",
    "spread.": "score-spread", "margin": "winners-margin", "margin_round": "winners-margin",
    "rounds": "rounds-and-turns", "turns": "rounds-and-turns", "turns_per_round": "rounds-and-turns",
    "end.": "how-rounds-end", "scouts": "scouts-per-round", "sns": "scouts-per-round",
    "scout_turn": "scout-timing", "scout_timing": "scout-timing", "sns_turn": "scout-timing", "sns_timing": "scout-timing",
    "captured": "cards-captured-per-round", "branching": "branching-factor", "branching_max": "branching-factor",
    "forced": "forced-decisions", "lead_changes": "lead-changes", "lead_changes_round": "lead-changes",
    "lead_change_rate": "lead-changes", "drama": "drama-cardstock", "security": "security-cardstock",
    "deficit": "winners-mean-deficit-ludii-drama", "decisiveness": "decisiveness-ludii",
    "skill_depth": "skill-depth", "luck": "luck",
}

# chart stem -> anchor
CHART_ANCHORS = {
    "scores": "score-spread", "win_rates": "seat-win-rates", "round_lengths": "rounds-and-turns",
    "end_reasons": "how-rounds-end", "scout_timing": "scout-timing",
}


def anchor(key: str) -> str | None:
    """The docs/metrics.md heading that defines a metric key (`win.2`, `end.rule_ii`, `turns`), or None."""
    if key in ANCHORS:
        return ANCHORS[key]
    prefix = key.split(".", 1)[0] + "."
    return ANCHORS.get(prefix) if "." in key else None
