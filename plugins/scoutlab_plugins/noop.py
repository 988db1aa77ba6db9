"""A plugin that implements every hook and changes nothing: it measures what the hooks cost.

A spec that lists `noop` plays exactly the rules it would play without it, but the
engine must check that its show hooks defer everywhere (they do, so the integer fast
path stays), calls its observer after every action, asks it for score adjustments at
every round end, and guards each action so that a failing plugin leaves the state as it
was. Comparing a benchmark with and without it gives the hook overhead.
"""

from __future__ import annotations

from scoutlab.host.hookspecs import hookimpl

summary = "changes nothing; it makes the engine call every hook, to measure their cost"


@hookimpl
def scoutlab_classify_show(values):
    return None


@hookimpl
def scoutlab_show_beats(show, active):
    return None


@hookimpl
def scoutlab_end_conditions():
    return None


@hookimpl
def scoutlab_score_round(state, end):
    return None


@hookimpl
def scoutlab_game_event(event, state):
    return None


@hookimpl
def scoutlab_bots():
    return None
