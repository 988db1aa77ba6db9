"""Ratings of the bots, fitted from the strength ladder's games, one table per variant and player count.

The model is Luce's choice rule, the many-player form of Bradley-Terry: each bot has a
strength g, and a game is won by a seat with probability g of its bot over the sum of
the table's g. A ladder row (one bot against n - 1 copies of another, `ladder.py`) so
has win probability g_a / (g_a + (n - 1) g_b). The strengths are fitted by maximum
likelihood and shown on the Elo scale, 400 log10(g), greedy at 0: 400 points more means
ten times the strength, so in a two-player game 10:1 odds. Each row also counts one win
and one loss that were never played (a weak prior), so a bot that won every game gets a
large but finite rating; such a gap is a floor, not a measurement, and the table says so.
The 95% intervals come from a bootstrap: every row's wins drawn again from its observed
rate, the ratings refitted, 2.5th and 97.5th percentiles.

    python benchmarks/ladder.py --games 2000 --out ladder.json ...   # play the rows first
    python benchmarks/ratings.py ladder.json [more.json ...]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys

ANCHOR = "greedy"  # rated 0: random is won against in (nearly) every game, so a gap to it is only a floor
PRIOR = 1.0  # games won and lost, never played, added to every row


def fit(rows: list[dict], bots: list[str]) -> dict[str, float]:
    """Log-strengths (natural log, the anchor at 0) maximising the rows' likelihood, by Newton steps on each bot in turn."""
    theta = dict.fromkeys(bots, 0.0)
    for _ in range(200):
        moved = 0.0
        for bot in bots:
            if bot == bots[0]:
                continue  # the anchor stays at 0
            grad = hess = 0.0
            for r in rows:
                if bot not in (r["bot"], r["lower"]):
                    continue
                others = r["players"] - 1
                p = 1 / (1 + others * math.exp(theta[r["lower"]] - theta[r["bot"]]))  # the upper bot's win chance
                games = r["games"] + 2 * PRIOR
                wins = r["wins"] + PRIOR
                sign = 1 if bot == r["bot"] else -1
                grad += sign * (wins - games * p)
                hess += games * p * (1 - p)
            if hess > 0:
                step = max(-2.0, min(2.0, grad / hess))
                theta[bot] += step
                moved = max(moved, abs(step))
        if moved < 1e-9:
            break
    return theta


def ratings(rows: list[dict], draws: int = 1000, seed: int = 0) -> list[tuple[str, float, float, float, int]]:
    """(bot, rating, low, high, games played) for one format, strongest first; the anchor is rated 0."""
    bots = sorted({r["bot"] for r in rows} | {r["lower"] for r in rows})
    if ANCHOR in bots:
        bots.remove(ANCHOR)
        bots.insert(0, ANCHOR)
    theta = fit(rows, bots)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(draws):
        again = []
        for r in rows:
            p = r["wins"] / r["games"]
            again.append({**r, "wins": sum(rng.random() < p for _ in range(r["games"]))})
        for bot, value in fit(again, bots).items():
            samples[bot].append(value)
    elo = 400 / math.log(10)
    out = []
    for bot in bots:
        s = sorted(samples[bot])
        low, high = s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]
        games = sum(r["games"] for r in rows if bot in (r["bot"], r["lower"]))
        out.append((bot, elo * theta[bot], elo * low, elo * high, games))
    return sorted(out, key=lambda item: -item[1])


def connected(rows: list[dict]) -> bool:
    """Every bot is linked to every other by some chain of rows (otherwise ratings cannot be compared)."""
    bots = {r["bot"] for r in rows} | {r["lower"] for r in rows}
    reached = {next(iter(bots))}
    grew = True
    while grew:
        grew = False
        for r in rows:
            pair = {r["bot"], r["lower"]}
            if pair & reached and not pair <= reached:
                reached |= pair
                grew = True
    return reached == bots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="ladder.py result files (JSON)")
    parser.add_argument("--draws", type=int, default=1000, help="bootstrap draws for the intervals")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    for path in args.files:
        try:
            with open(path) as f:
                rows += json.load(f)
        except (OSError, ValueError) as exc:
            print(f"ratings.py: {path}: {exc}", file=sys.stderr)
            return 1
    formats = sorted({(r["variant"], r["players"]) for r in rows})
    for variant, players in formats:
        chosen = [r for r in rows if (r["variant"], r["players"]) == (variant, players) and r["games"]]
        if not connected(chosen):
            print(f"\n{variant} {players}p: the rows do not link every bot to every other; no ratings")
            continue
        print(f"\n{variant}, {players} players (Elo scale, {ANCHOR} = 0; 95% bootstrap intervals)\n")
        print("| bot | rating | 95% interval | games |")
        print("|---|---|---|---|")
        for bot, value, low, high, games in ratings(chosen, args.draws):
            interval = "anchor" if bot == ANCHOR else f"{low:.0f} to {high:.0f}"
            print(f"| {bot} | {value:.0f} | {interval} | {games} |")
        for r in chosen:
            if r["wins"] in (0, r["games"]):
                print(f"\n{r['bot']} {'won' if r['wins'] else 'lost'} every game against {r['lower']}: the gap between "
                      "them is a floor set by the prior, not a measurement.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
